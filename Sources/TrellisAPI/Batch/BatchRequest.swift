import TrellisJSON

/// The batch body's members.
enum BatchMember: Int, JSONMember {
    case requests
    static let keys = JSONKeys(BatchMember.self)
}

/// A batch read from its body: each entry's endpoint, its route number, its body (a value of the batch's document)
/// and the bytes that body was written with.
struct BatchRequest {
    struct Entry {
        let endpoint: JSONEndpoint
        let route: Int
        let body: JSONValue
        var bytes = 0
    }

    var entries: [Entry]
    /// The bytes of the body outside the entries' bodies.
    var otherBytes = 0

    /// An entry's members.
    enum Member: Int, JSONMember {
        case path, body
        static let keys = JSONKeys(Member.self)
    }

    /// The batch parsed (with its structural index kept) from `body`, or nil after recording every problem with its
    /// pointer (`/requests/3/path`). `routes` gives each POST feature path its endpoint and route number.
    static func read(
        _ document: JSONDocument, _ body: UnsafeRawBufferPointer, routes: (String) -> (JSONEndpoint, Int)?, paths: [String],
        _ problems: inout Problems
    ) -> BatchRequest? {
        guard var batch = read(document.root, routes: routes, paths: paths, &problems) else { return nil }
        // Each entry is limited and metered by the bytes its body was written with, as if sent alone.
        let counts = document.byteCounts(of: batch.entries.map(\.body), in: body)
        batch.otherBytes = body.count
        for k in batch.entries.indices {
            batch.entries[k].bytes = counts[k]
            batch.otherBytes -= counts[k]
        }
        return batch
    }

    /// Rule: the working memory a batch keeps once read: each entry's endpoint's figure per byte for its bytes, and
    /// `elsewhere` per byte for the rest of the body.
    func workingMemory(elsewhere: Int) -> Int {
        var kept = otherBytes * elsewhere
        for entry in entries { kept += entry.bytes * entry.endpoint.workingMemoryPerByte }
        return kept
    }

    private static func read(_ root: JSONValue, routes: (String) -> (JSONEndpoint, Int)?, paths: [String], _ problems: inout Problems) -> BatchRequest? {
        guard root.kind == .object else {
            problems.add(at: root, "must be an object")
            return nil
        }
        guard let list = root.fields(BatchMember.self)[BatchMember.requests] else {
            problems.add(at: root, member: "requests", "is required")
            return nil
        }
        guard list.kind == .array else {
            problems.add(at: list, "must be an array of 1 to \(BatchLimits.maxRequests) requests")
            return nil
        }
        let count = list.count
        guard count >= 1 && count <= BatchLimits.maxRequests else {
            problems.add(at: list, "must hold 1 to \(BatchLimits.maxRequests) requests (it holds \(count))")
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for element in list.elements {
            guard element.kind == .object else {
                problems.add(at: element, "must be an object with a path and a body")
                continue
            }
            let members = element.fields(Member.self)
            let path = members[Member.path]
            let body = members[Member.body]
            var endpoint: (JSONEndpoint, Int)?
            if let path {
                if let name = path.string {
                    if name == BatchEndpoint.path {
                        problems.add(at: path, "must not be \(BatchEndpoint.path): a batch cannot hold a batch")
                    } else if let found = routes(name) {
                        endpoint = found
                    } else {
                        problems.add(at: path, "must be one of the POST endpoints: \(paths.joined(separator: ", ")) (not \(Problems.quote(name)))")
                    }
                } else {
                    problems.add(at: path, "must be a string: one of the POST endpoints")
                }
            } else {
                problems.add(at: element, member: "path", "is required")
            }
            if body == nil { problems.add(at: element, member: "body", "is required") }
            if let (endpoint, route) = endpoint, let body {
                entries.append(Entry(endpoint: endpoint, route: route, body: body))
            }
        }
        return problems.isEmpty ? BatchRequest(entries: entries) : nil
    }
}

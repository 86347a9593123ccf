import CSimdJSON

/// Collects every problem found while reading a request (the first 100 are kept).
///
/// Pointers into the body are kept as tape positions and spelled out together, in one forward
/// walk over the document, when the list is read: recording a problem costs O(1) wherever it is.
public struct Problems {
    public static let limit = 100
    private var entries: [Entry] = []
    /// All problems found, including those past the limit.
    public private(set) var count = 0

    /// Where a problem is: a pointer spelled out already, or a value on the tape (and a member of it).
    enum Location {
        case pointer(String)
        case value(tjson_document, Int, member: String?)
    }

    struct Entry {
        var at: Location
        var detail: String
        /// A detail that quotes another place in the body: `detail` + its pointer + `detailEnd`.
        var cited: Location?
        var detailEnd = ""
    }

    /// The tape index pointers start from: the document's root, or the value a request was read from.
    private var root = 1
    /// A documented problem type (a URI) the 422 these problems make takes instead of about:blank, set by the
    /// reader that records a problem of that type (a font that is not stored: the client uploads it and retries).
    public var type: String?

    public init() {}

    /// Problems of a request read from `root`, a value inside a larger document: pointers lead from it.
    public init(root: JSONValue) {
        self.root = root.index
    }

    public var isEmpty: Bool { count == 0 }

    private mutating func add(_ entry: @autoclosure () -> Entry) {
        count += 1
        if entries.count < Self.limit { entries.append(entry()) }
    }

    public mutating func add(pointer: @autoclosure () -> String, _ detail: @autoclosure () -> String) {
        add(Entry(at: .pointer(pointer()), detail: detail()))
    }

    public mutating func add(at value: JSONValue, _ detail: @autoclosure () -> String) {
        add(Entry(at: .value(value.document, value.index, member: nil), detail: detail()))
    }

    /// A problem with a member that is absent (or present), named relative to its object.
    public mutating func add(at object: JSONValue, member: String, _ detail: @autoclosure () -> String) {
        add(Entry(at: .value(object.document, object.index, member: member), detail: detail()))
    }

    /// A problem whose detail names another place: `detail`, the pointer to `cited` (and its
    /// `citedMember`), then `detailEnd`.
    public mutating func add(
        at value: JSONValue, _ detail: @autoclosure () -> String, citing cited: JSONValue, member citedMember: String? = nil,
        _ detailEnd: @autoclosure () -> String = ""
    ) {
        add(Entry(
            at: .value(value.document, value.index, member: nil), detail: detail(),
            cited: .value(cited.document, cited.index, member: citedMember), detailEnd: detailEnd()))
    }

    /// The problems kept, with their pointers spelled out. Read it while the document is alive.
    public var list: [Problem] {
        var wanted: [Int] = []
        var document: tjson_document?
        for entry in entries {
            for case .value(let d, let index, _) in [entry.at, entry.cited].compactMap({ $0 }) {
                wanted.append(index)
                document = d
            }
        }
        var pointers: [Int: String] = [:]
        if let document, !wanted.isEmpty {
            let sorted = Array(Set(wanted)).sorted()
            for (index, pointer) in zip(sorted, JSONPointer.pointers(to: sorted, in: document, root: root)) { pointers[index] = pointer }
        }
        func spell(_ location: Location) -> String {
            switch location {
            case .pointer(let text): return text
            case .value(_, let index, nil): return pointers[index] ?? ""
            case .value(_, let index, let member?): return JSONPointer.appending(pointers[index] ?? "", member)
            }
        }
        return entries.map { entry in
            Problem(pointer: spell(entry.at), detail: entry.detail + (entry.cited.map(spell) ?? "") + entry.detailEnd)
        }
    }

    /// Client text quoted in a detail: at most 100 bytes of it, cut between characters.
    public static func quote(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > 100 { return "\"\(String(kept))…\"" }
            kept.append(scalar)
        }
        return "\"\(text)\""
    }
}

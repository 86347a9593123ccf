import TrellisHTTP

/// How answers may be stored by caches (RFC 9111) and revalidated (RFC 9110 §8.8.3, §13.1.2).
enum Caching {
    /// API answers, problems, health, readiness and metrics: no cache keeps them (RFC 9111 §5.2.2.5).
    static let noStore = "no-store"
    /// Answers fixed for the life of the process (the embedded assets, the index, the fonts listing):
    /// any cache, shared ones too, may keep them for 5 minutes, then revalidates with their ETag
    /// (`public` would add nothing: no request is authenticated, RFC 9111 §5.2.2.9). The paths carry
    /// no version, so the freshness is short: after an upgrade a browser sees the new bytes within 5 minutes.
    static let fixed = "max-age=300"

    /// A strong entity tag (RFC 9110 §8.8.3) for bytes fixed at start: the first 128 bits of their SHA-256
    /// (nil only when libcrypto ran out of memory: the answer then goes without one).
    static func entityTag<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String? {
        ContentDigest.sha256(bytes).map { "\"" + ContentDigest.hex($0.prefix(16)) + "\"" }
    }

    /// RFC 9110 §13.1.2 for GET and HEAD: a 200 that carries an ETag becomes a 304 when If-None-Match
    /// is "*" or lists a tag that matches it by weak comparison. Only the first If-None-Match field
    /// line is read: a tag in a later one gets the 200, which a cache always accepts.
    static func conditional(_ response: TrellisResponse, for request: TrellisRequest) -> TrellisResponse {
        guard response.status == 200, let tag = response.headers["ETag"],
            request.headers.withValue("If-None-Match", { $0.map { noneMatch($0, matches: tag) } ?? false })
        else { return response }
        // §15.4.5: the 304 carries the fields a 200 would for the cache's update, and no content.
        var headers = TrellisHeaders()
        for field in response.headers.fields where field.name.lowercased() != "content-type" {
            headers.add(field.name, field.value)
        }
        return TrellisResponse(status: 304, headers: headers, closeConnection: response.closeConnection)
    }

    /// If-None-Match = "*" / #entity-tag (§13.1.2); entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE (§8.8.3).
    /// Weak comparison: the opaque tags are equal, either may be weak. A malformed list matches nothing.
    static func noneMatch(_ field: UnsafeBufferPointer<UInt8>, matches tag: String) -> Bool {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var i = 0
        let n = field.count
        func skipSpace() { while i < n, isSpace(field[i]) { i += 1 } }
        skipSpace()
        if i < n, field[i] == UInt8(ascii: "*") {
            i += 1
            skipSpace()
            return i == n
        }
        // The server's own tags are strong: `tag` is the opaque tag itself.
        let wanted = tag.utf8
        var found = false
        while i < n {
            // Empty list elements are allowed (RFC 9110 §5.6.1.2).
            while i < n, isSpace(field[i]) || field[i] == comma { i += 1 }
            guard i < n else { break }
            if n - i >= 2, field[i] == UInt8(ascii: "W"), field[i + 1] == UInt8(ascii: "/") { i += 2 }
            guard i < n, field[i] == quote else { return false }
            let start = i
            i += 1
            // etagc = %x21 / %x23-7E / obs-text
            while i < n, field[i] != quote {
                guard field[i] == 0x21 || field[i] >= 0x23, field[i] != 0x7F else { return false }
                i += 1
            }
            guard i < n else { return false }
            i += 1
            if UnsafeBufferPointer(rebasing: field[start..<i]).elementsEqual(wanted) { found = true }
            skipSpace()
            guard i == n || field[i] == comma else { return false }
        }
        return found
    }
}

/// An answer fixed at start (an embedded file, the index): its bytes, type, caching and ETag.
struct FixedAnswer: Sendable {
    let response: TrellisResponse

    init(_ body: [UInt8], type: String, headers extra: [(String, String)] = []) {
        var headers: TrellisHeaders = ["Content-Type": type]
        headers.add("Cache-Control", Caching.fixed)
        if let tag = Caching.entityTag(of: body) { headers.add("ETag", tag) }
        for (name, value) in extra { headers.add(name, value) }
        response = TrellisResponse(status: 200, headers: headers, body: body)
    }
}

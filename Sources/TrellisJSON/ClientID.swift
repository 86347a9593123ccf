import Glibc

/// An id as a client sent it: a JSON string or an integer (no fraction, |n| ≤ 2^53; `3.0` is
/// the integer 3, as in JSON Schema and JavaScript). `"1"` and `1` are different ids; strings
/// compare by their UTF-8 bytes (no Unicode normalisation), so every distinct JSON string is a
/// distinct id.
public enum ClientID: Hashable, Sendable {
    case string(String)
    case integer(Int64)

    public static let maxMagnitude: Int64 = 1 << 53
    /// UTF-8 bytes of a string id: ids are names, and answers repeat them.
    public static let maxStringBytes = 4096

    public static func == (a: ClientID, b: ClientID) -> Bool {
        switch (a, b) {
        case (.string(var x), .string(var y)):
            // Strings compare by their UTF-8 bytes.
            return x.utf8.count == y.utf8.count && x.withUTF8 { a in
                y.withUTF8 { b in sameBytes(a.baseAddress, b.baseAddress, a.count) }
            }
        case (.integer(let x), .integer(let y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s):
            hasher.combine(0 as UInt8)
            var s = s
            s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .integer(let n):
            hasher.combine(1 as UInt8)
            hasher.combine(n)
        }
    }

    /// True for a string of at most `maxStringBytes` or an integer in range (`2.0` counts as 2);
    /// otherwise records a problem. Builds no value.
    public static func isValid(_ json: JSONValue, _ problems: inout Problems) -> Bool {
        if json.kind == .string {
            guard json.withStringBytes({ $0.count }) <= maxStringBytes else {
                problems.add(at: json, "must be a string of at most \(maxStringBytes) bytes of UTF-8 or an integer")
                return false
            }
            return true
        }
        if let n = json.int64, n >= -maxMagnitude && n <= maxMagnitude { return true }
        if json.isIntegral {
            problems.add(at: json, "must be a string or an integer with magnitude at most 2^53")
        } else {
            problems.add(at: json, "must be a string or an integer")
        }
        return false
    }

    /// Writes a valid id on the tape back as the client gave it (`2.0` as 2).
    public static func write(_ id: JSONValue, to json: inout JSONWriter) {
        if id.kind == .string { json.value(id) } else { json.int(Int(id.int64 ?? 0)) }
    }

    /// Reads an id, recording a problem when the value is neither a string nor an integer in range.
    public init?(json: JSONValue, _ problems: inout Problems) {
        guard Self.isValid(json, &problems) else { return nil }
        self = json.kind == .string ? .string(json.string ?? "") : .integer(json.int64 ?? 0)
    }

    public func write(to json: inout JSONWriter) {
        switch self {
        case .string(let s): json.string(s)
        case .integer(let n): json.int(Int(n))
        }
    }

    /// For problem details: a valid id on the tape, quoted, at most 100 bytes of it.
    public static func quoted(_ json: JSONValue) -> String {
        json.kind == .string ? Problems.quote(json.string ?? "") : String(json.int64 ?? 0)
    }

    /// For problem details: the id quoted, at most 100 bytes of it.
    public var quoted: String {
        switch self {
        case .string(let s): return Problems.quote(s)
        case .integer(let n): return String(n)
        }
    }
}

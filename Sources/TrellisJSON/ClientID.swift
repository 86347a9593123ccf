/// The rules of a client id, which stays on the parsed document (IDTable numbers and finds ids):
/// a JSON string or an integer (no fraction, |n| ≤ 2^53; `3.0` is the integer 3, as in JSON
/// Schema and JavaScript). `"1"` and `1` are different ids; strings compare by their UTF-8 bytes
/// (no Unicode normalisation), so every distinct JSON string is a distinct id.
public enum ClientID {
    public static let maxMagnitude: Int64 = 1 << 53
    /// UTF-8 bytes of a string id: ids are names, and answers repeat them.
    public static let maxStringBytes = 4096

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

    /// For problem details: a valid id on the tape, quoted, at most 100 bytes of it.
    public static func quoted(_ json: JSONValue) -> String {
        json.kind == .string ? Problems.quote(json.string ?? "") : String(json.int64 ?? 0)
    }
}

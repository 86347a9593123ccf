import TrellisJSON

/// The bytes of the batch's body each entry's body was written with, found in one forward scan that
/// steps through the JSON text's tokens in step with the parsed tape (each token is one tape value, a
/// number two tape words), so an entry is limited and metered by its own size as if sent alone.
enum BatchSpans {
    /// The byte count of each value, in ascending tape order and not nested in each other. The text was
    /// parsed already, so it is valid JSON; the scan stops after the last value (at most one pass).
    static func byteCounts(of values: [JSONValue], in text: UnsafeRawBufferPointer) -> [Int] {
        var counts = [Int](repeating: 0, count: values.count)
        guard let base = text.baseAddress?.assumingMemoryBound(to: UInt8.self), !values.isEmpty else { return counts }
        let starts = values.map(\.index)
        let ends = values.map(\.end)
        let n = text.count
        var tape = 1
        var i = 0
        var k = 0
        var start = 0
        var nextStart = starts[0]
        var nextEnd = ends[0]
        while i < n {
            let byte = base[i]
            // Whitespace and separators are no tape values.
            if byte <= 0x20 || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") {
                i += 1
                continue
            }
            if tape == nextStart { start = i }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "}"), UInt8(ascii: "]"):
                i += 1
                tape += 1
            case UInt8(ascii: "\""):
                // To the closing quote, stepping over each escape's next byte (strings are short: no memchr).
                i += 1
                while i < n {
                    let c = base[i]
                    if c == UInt8(ascii: "\"") {
                        i += 1
                        break
                    }
                    i += c == UInt8(ascii: "\\") ? 2 : 1
                }
                tape += 1
            default:
                // A number (two tape words) or true, false, null (one).
                let isLiteral = byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
                i += 1
                while i < n {
                    let c = base[i]
                    if c <= 0x20 || c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") { break }
                    i += 1
                }
                tape += isLiteral ? 1 : 2
            }
            if tape == nextEnd {
                counts[k] = i - start
                k += 1
                guard k < values.count else { break }
                nextStart = starts[k]
                nextEnd = ends[k]
            }
        }
        return counts
    }
}

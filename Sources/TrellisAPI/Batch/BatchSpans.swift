import TrellisJSON

/// The bytes of the batch's body each entry's body was written with, found in one forward scan that
/// steps through the JSON text's tokens in step with the parsed tape (each token is one tape value, a
/// number two tape words), so an entry is limited and metered by its own size as if sent alone.
enum BatchSpans {
    /// The byte count of each value, in ascending tape order and not nested in each other. The text was
    /// parsed already, so it is valid JSON; the scan stops after the last value (at most one pass).
    static func byteCounts(of values: [JSONValue], in text: UnsafeRawBufferPointer) -> [Int] {
        var counts = [Int](repeating: 0, count: values.count)
        var tape = 1
        var i = 0
        var k = 0
        var start = 0
        let n = text.count
        while k < values.count && i < n {
            let byte = text[i]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","), UInt8(ascii: ":"):
                i += 1
                continue
            default:
                break
            }
            if tape == values[k].index { start = i }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "}"), UInt8(ascii: "]"):
                i += 1
                tape += 1
            case UInt8(ascii: "\""):
                i += 1
                while i < n {
                    let c = text[i]
                    if c == UInt8(ascii: "\\") {
                        i += 2
                    } else {
                        i += 1
                        if c == UInt8(ascii: "\"") { break }
                    }
                }
                tape += 1
            default:
                // A number (two tape words) or true, false, null (one).
                let isLiteral = byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
                while i < n {
                    let c = text[i]
                    if c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: " ")
                        || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") || c == UInt8(ascii: "\t") || c == UInt8(ascii: ":")
                    {
                        break
                    }
                    i += 1
                }
                tape += isLiteral ? 1 : 2
            }
            if tape == values[k].end {
                counts[k] = min(i, n) - start
                k += 1
            }
        }
        return counts
    }
}

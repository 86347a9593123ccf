import CSimdJSON

/// A parsed request body: simdjson's tape, valid until the same thread parses again.
public struct JSONDocument {
    let tape: tjson_document

    /// Readable bytes that must follow a body for it to be parsed in place (TJSON_PADDING, at least simdjson's).
    public static let padding = Int(TJSON_PADDING)

    /// The top-level value.
    public var root: JSONValue { JSONValue(document: tape, index: 1) }

    /// Parses with this thread's reusable simdjson parser. `padded` promises TJSON_PADDING
    /// readable bytes after the input, so it is parsed in place. `keepingIndex` keeps what
    /// `byteCounts(of:in:)` reads.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, padded: Bool, keepingIndex: Bool = false
    ) -> Result<JSONDocument, JSONParseError> {
        var document = tjson_document()
        var message: UnsafePointer<CChar>?
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = withUnsafeTemporaryEmptyBase(base) { start in
            tjson_parse(start, bytes.count, padded && base != nil ? 1 : 0, keepingIndex ? 1 : 0, &document, &message)
        }
        switch status {
        case TJSON_OK:
            return .success(JSONDocument(tape: document))
        case TJSON_TOO_DEEP:
            return .failure(.tooDeep(limit: Int(TJSON_MAX_DEPTH)))
        case TJSON_CAPACITY:
            return .failure(.tooLarge)
        default:
            return .failure(.invalid(message.map { String(cString: $0) } ?? "invalid JSON"))
        }
    }

    /// Gives simdjson a valid pointer even for an empty body.
    private static func withUnsafeTemporaryEmptyBase<R>(
        _ base: UnsafePointer<UInt8>?, _ body: (UnsafePointer<UInt8>) -> R
    ) -> R {
        if let base { return body(base) }
        var empty: UInt8 = 0
        return withUnsafePointer(to: &empty) { body($0) }
    }

    /// The bytes of `text` (the body this document was parsed from, with `keepingIndex`) that each value was
    /// written with: values in ascending order, not nested in each other, read off simdjson's structural index
    /// (the offset of every token) in one pass. Once per document, before this thread parses again.
    public func byteCounts(of values: [JSONValue], in text: UnsafeRawBufferPointer) -> [Int] {
        guard !values.isEmpty, let base = text.baseAddress else { return [Int](repeating: 0, count: values.count) }
        let starts = values.map(\.index)
        let ends = values.map(\.end)
        return [Int](unsafeUninitializedCapacity: values.count) { counts, initialized in
            starts.withUnsafeBufferPointer { starts in
                ends.withUnsafeBufferPointer { ends in
                    tjson_byte_counts(
                        base.assumingMemoryBound(to: UInt8.self), text.count, starts.baseAddress, ends.baseAddress,
                        values.count, counts.baseAddress)
                }
            }
            initialized = values.count
        }
    }

    /// Lets a thread's parser shrink back after a large document.
    public static func trimParser(keepingBytes: Int) {
        tjson_trim(keepingBytes)
    }

    /// The input capacity this thread's parser holds on to, in bytes.
    static var parserCapacity: Int { tjson_capacity() }
}

/// Why a body is not JSON the service can read.
public enum JSONParseError: Error, Equatable, Sendable {
    case invalid(String)
    case tooDeep(limit: Int)
    case tooLarge
}

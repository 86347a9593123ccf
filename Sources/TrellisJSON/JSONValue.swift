import CSimdJSON
import Glibc

/// A read-only view of one value in a parsed document: a position on simdjson's tape.
public struct JSONValue {
    @usableFromInline let document: tjson_document
    /// Where the value sits in its document: a stable position, for values kept compactly
    /// (see `value(at:)`).
    public let index: Int

    @usableFromInline init(document: tjson_document, index: Int) {
        self.document = document
        self.index = index
    }

    public enum Kind: Equatable, Sendable {
        case object, array, string, integer, double, bool, null
    }

    @inlinable public var kind: Kind {
        switch tjson_type_at(document, index) {
        case TJSON_OBJECT: return .object
        case TJSON_ARRAY: return .array
        case TJSON_STRING: return .string
        case TJSON_INT64, TJSON_UINT64: return .integer
        case TJSON_DOUBLE: return .double
        case TJSON_TRUE, TJSON_FALSE: return .bool
        default: return .null
        }
    }

    @usableFromInline var type: tjson_type { tjson_type_at(document, index) }
    /// The position just after this value (and everything inside it).
    public var end: Int { tjson_after(document, index) }

    /// The value at `index` (an `index` of a value of the same document).
    public func value(at index: Int) -> JSONValue { JSONValue(document: document, index: index) }

    @inlinable public var isNull: Bool { type == TJSON_NULL }

    /// Elements of an array (none for other kinds).
    @inlinable public var elements: JSONElements { JSONElements(document: document, start: type == TJSON_ARRAY ? index + 1 : -1) }

    /// Members of an object in document order (none for other kinds).
    public var members: JSONMembers { JSONMembers(document: document, start: type == TJSON_OBJECT ? index + 1 : -1) }

    /// Elements of an array or members of an object.
    public var count: Int {
        let stored = tjson_count(document, index)
        guard stored == 0xFFFFFF else { return stored }
        return type == TJSON_ARRAY ? elements.reduce(0) { n, _ in n + 1 } : members.reduce(0) { n, _ in n + 1 }
    }

    public var string: String? {
        guard type == TJSON_STRING else { return nil }
        return withStringBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of a string where the parsed document keeps them (simdjson has validated them), nil when the
    /// value is not a string: valid as long as the document is (a request's, until its answer is written), so a
    /// computation may read them later.
    @inlinable public var stringBytes: UnsafeRawBufferPointer? {
        guard tjson_type_at(document, index) == TJSON_STRING else { return nil }
        var length = 0
        let start = tjson_string(document, index, &length)
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    /// The UTF-8 bytes of a string (simdjson has validated them).
    public func withStringBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var length = 0
        let start = tjson_string(document, index, &length)
        return body(UnsafeRawBufferPointer(start: start, count: length))
    }

    /// An integer that fits Int64: a number without a fraction, whether written `2` or `2.0`
    /// (JSON Schema's `integer`, and all JavaScript can tell apart).
    public var int64: Int64? {
        switch type {
        case TJSON_INT64: return tjson_int64(document, index)
        case TJSON_UINT64:
            let value = tjson_uint64(document, index)
            return value <= UInt64(Int64.max) ? Int64(value) : nil
        case TJSON_DOUBLE:
            let value = tjson_double(document, index)
            // 2^63 is the first double past Int64.max; -2^63 itself fits.
            guard value == value.rounded(.towardZero), value >= -0x1p63, value < 0x1p63 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// A number without a fraction, of any size (an integer to JSON Schema).
    public var isIntegral: Bool {
        guard let value = double else { return false }
        return value == value.rounded(.towardZero)
    }

    /// Any number, as a Double.
    public var double: Double? {
        switch type {
        case TJSON_INT64: return Double(tjson_int64(document, index))
        case TJSON_UINT64: return Double(tjson_uint64(document, index))
        case TJSON_DOUBLE: return tjson_double(document, index)
        default: return nil
        }
    }

    public var bool: Bool? {
        switch type {
        case TJSON_TRUE: return true
        case TJSON_FALSE: return false
        default: return nil
        }
    }

    /// The RFC 6901 pointer to this value, found by walking down from the root (no recursion).
    public var pointer: String {
        JSONPointer.pointers(to: [index], in: document)[0]
    }
}

/// True when `count` bytes at `a` and `b` are equal (no bytes are always equal).
@inlinable @inline(__always)
public func sameBytes(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let a, let b else { return false }
    return memcmp(a, b, count) == 0
}

public struct JSONElements: Sequence, IteratorProtocol {
    @usableFromInline let document: tjson_document
    @usableFromInline var position: Int

    @usableFromInline init(document: tjson_document, start: Int) {
        self.document = document
        self.position = start
    }

    @inlinable public mutating func next() -> JSONValue? {
        guard position >= 0, tjson_type_at(document, position) != TJSON_ARRAY_END else { return nil }
        let value = JSONValue(document: document, index: position)
        position = tjson_after(document, position)
        return value
    }
}

public struct JSONMembers: Sequence, IteratorProtocol {
    let document: tjson_document
    var position: Int

    init(document: tjson_document, start: Int) {
        self.document = document
        self.position = start
    }

    public mutating func next() -> (key: JSONValue, value: JSONValue)? {
        guard position >= 0, tjson_type_at(document, position) != TJSON_OBJECT_END else { return nil }
        let key = JSONValue(document: document, index: position)
        let value = JSONValue(document: document, index: position + 1)
        position = tjson_after(document, position + 1)
        return (key, value)
    }
}

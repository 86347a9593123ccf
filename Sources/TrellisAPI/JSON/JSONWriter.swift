import CSimdJSON

/// A streaming JSON writer into one growable byte buffer.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    /// True right after `[`, `{` or a key: the next value needs no comma.
    private var atStart = true

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        if !atStart { bytes.append(UInt8(ascii: ",")) }
        atStart = false
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        atStart = true
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        atStart = false
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        atStart = true
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        atStart = false
    }

    /// A member name the service chose (plain ASCII, nothing to escape).
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        atStart = true
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string from UTF-8 bytes, escaped per RFC 8259 §7.
    public mutating func string(utf8: UnsafeRawBufferPointer) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<utf8.count {
            let byte = utf8[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<i]))
            runStart = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func int(_ value: Int) {
        separate()
        appendDecimal(value)
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            while magnitude > 0 {
                i -= 1
                digits[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
        }
    }

    /// A finite number: integral values without a fraction, others as Swift's shortest
    /// round-trip form. A non-finite value is a bug upstream and is written as 0.
    public mutating func number(_ value: Double) {
        separate()
        guard value.isFinite else {
            assertionFailure("non-finite number in a response")
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            appendDecimal(Int(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        let literal: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    public mutating func null() {
        separate()
        let literal: StaticString = "null"
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Writes a request value back out, equivalent to what the client sent (any depth,
    /// iterating over the tape rather than recursing).
    public mutating func value(_ source: JSONValue) {
        let document = source.document
        var i = source.index
        let end = source.end
        // One entry per open container.
        var open: [Container] = []
        while i < end {
            let type = tjson_type_at(document, i)
            if open.last == .objectAwaitingKey && type != TJSON_OBJECT_END {
                JSONValue(document: document, index: i).withStringBytes { string(utf8: $0) }
                bytes.append(UInt8(ascii: ":"))
                atStart = true
                open[open.count - 1] = .objectAwaitingValue
                i += 1
                continue
            }
            switch type {
            case TJSON_OBJECT:
                beginObject()
                open.append(.objectAwaitingKey)
                i += 1
                continue
            case TJSON_ARRAY:
                beginArray()
                open.append(.array)
                i += 1
                continue
            case TJSON_OBJECT_END:
                endObject()
                open.removeLast()
            case TJSON_ARRAY_END:
                endArray()
                open.removeLast()
            case TJSON_STRING:
                JSONValue(document: document, index: i).withStringBytes { string(utf8: $0) }
            case TJSON_INT64:
                int(Int(tjson_int64(document, i)))
            case TJSON_UINT64:
                separate()
                bytes.append(contentsOf: String(tjson_uint64(document, i)).utf8)
            case TJSON_DOUBLE:
                separate()
                bytes.append(contentsOf: tjson_double(document, i).description.utf8)
            case TJSON_TRUE: bool(true)
            case TJSON_FALSE: bool(false)
            default: null()
            }
            // A value (or a container's end) is complete: in an object, a key comes next.
            i = tjson_after(document, i)
            if open.last == .objectAwaitingValue { open[open.count - 1] = .objectAwaitingKey }
        }
    }

    private enum Container { case array, objectAwaitingKey, objectAwaitingValue }
}

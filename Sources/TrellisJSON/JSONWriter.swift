import CSimdJSON
import Glibc

/// Memory a writer reserves before it allocates (the server's memory budget).
public protocol JSONWriterBudget: AnyObject, Sendable {
    /// Takes `bytes` when they fit; false (nothing taken) otherwise.
    func reserve(_ bytes: Int) -> Bool
    func release(_ bytes: Int)
}

/// A streaming JSON writer into one growable malloc'd buffer, which the caller takes over without
/// a copy (`take()`). Not copyable: one writer, one buffer.
///
/// Rule: an answer is bounded. The writer never grows past `limit` bytes, and every byte it
/// allocates is first reserved from the memory budget; when either refuses, or malloc fails,
/// it stops writing and records why (`failure`), and the caller answers a problem instead.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity: Int
    public private(set) var count = 0
    /// True right after `[`, `{` or a key: the next value needs no comma.
    private var atStart = true
    /// The most bytes this answer may take.
    public let limit: Int
    private let budget: (any JSONWriterBudget)?
    /// Why writing stopped; nil while every byte fits.
    public private(set) var failure: Failure?

    public enum Failure: Equatable, Sendable {
        /// The answer would pass `limit`.
        case tooLarge
        /// The memory budget or malloc refused the bytes.
        case outOfMemory
    }

    public init(capacity: Int = 512, limit: Int = .max, budget: (any JSONWriterBudget)? = nil) {
        self.limit = max(limit, 16)
        self.budget = budget
        let wanted = min(max(capacity, 16), self.limit)
        self.capacity = 0
        guard budget?.reserve(wanted) ?? true else {
            failure = .outOfMemory
            return
        }
        guard let memory = malloc(wanted) else {
            budget?.release(wanted)
            failure = .outOfMemory
            return
        }
        base = memory.assumingMemoryBound(to: UInt8.self)
        self.capacity = wanted
    }

    deinit {
        if base != nil { budget?.release(capacity) }
        free(base)
    }

    /// A copy of what was written so far.
    public var bytes: [UInt8] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Hands the written bytes over without a copy: malloc'd memory to free() and the `held` bytes
    /// of it reserved from the budget, for the taker to give back. nil after a failure.
    public consuming func take() -> (base: UnsafeMutablePointer<UInt8>, count: Int, held: Int)? {
        guard let base, failure == nil else { return nil }
        // The taker owns the memory and its reservation now.
        self.base = nil
        return (base, count, capacity)
    }

    /// Makes room for `extra` more bytes; false (and `failure` set) when the answer may not grow.
    @inline(never)
    private mutating func reserve(_ extra: Int) -> Bool {
        guard failure == nil else { return false }
        guard count + extra > capacity else { return true }
        guard extra <= limit - count else {
            failure = .tooLarge
            return false
        }
        var grown = max(capacity * 2, 64)
        while grown < count + extra { grown *= 2 }
        guard grow(to: min(grown, limit)) else {
            failure = .outOfMemory
            return false
        }
        return true
    }

    /// Reallocates to `size` bytes, reserved from the budget first; false when either refuses.
    private mutating func grow(to size: Int) -> Bool {
        guard budget?.reserve(size - capacity) ?? true else { return false }
        guard let memory = realloc(base, size) else {
            budget?.release(size - capacity)
            return false
        }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = size
        return true
    }

    /// Allocates room for an answer of about `size` bytes up front (at most `limit`); a refusal
    /// here is not a failure, the writer grows as it writes.
    public mutating func reserveCapacity(_ size: Int) {
        let size = min(size, limit)
        if failure == nil && size > capacity { _ = grow(to: size) }
    }

    /// Room for `extra` more bytes: the common case is one comparison, growing is out of line.
    @inline(__always)
    private mutating func ensure(_ extra: Int) -> Bool {
        count + extra <= capacity || reserve(extra)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        guard ensure(1) else { return }
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, ensure(bytes.count), let source = bytes.baseAddress else { return }
        (base.unsafelyUnwrapped + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    private mutating func separate() {
        if !atStart { append(UInt8(ascii: ",")) }
        atStart = false
    }

    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        atStart = true
    }

    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        atStart = false
    }

    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        atStart = true
    }

    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        atStart = false
    }

    /// A member name the service chose (plain ASCII, nothing to escape), with its comma, quotes
    /// and colon written in one step.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        guard ensure(length + 4) else { return }
        var out = base.unsafelyUnwrapped + count
        if !atStart {
            out.pointee = UInt8(ascii: ",")
            out += 1
        }
        out.pointee = UInt8(ascii: "\"")
        (out + 1).update(from: name.utf8Start, count: length)
        out += 1 + length
        out.pointee = UInt8(ascii: "\"")
        (out + 1).pointee = UInt8(ascii: ":")
        count = out + 2 - base.unsafelyUnwrapped
        atStart = true
    }

    /// Members another writer wrote (`"a":1,"b":[2]`, without the braces), added to the open object.
    public mutating func members(_ written: UnsafeRawBufferPointer) {
        guard !written.isEmpty else { return }
        separate()
        append(written)
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string from UTF-8 bytes, escaped per RFC 8259 §7.
    public mutating func string(utf8: UnsafeRawBufferPointer) {
        // Past the limit nothing is written: don't scan long strings for nothing.
        guard failure == nil else { return }
        separate()
        append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<utf8.count {
            let byte = utf8[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            append(UnsafeRawBufferPointer(rebasing: utf8[runStart..<i]))
            runStart = i + 1
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                append(UInt8(ascii: "u"))
                append(UInt8(ascii: "0"))
                append(UInt8(ascii: "0"))
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        append(UnsafeRawBufferPointer(rebasing: utf8[runStart...]))
        append(UInt8(ascii: "\""))
    }

    public mutating func int(_ value: Int) {
        separate()
        appendDecimal(value)
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 0 && value < 10 {
            append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(value.magnitude))
    }

    /// Decimal digits written straight into the buffer (at most 20 for a UInt64).
    private mutating func appendDecimal(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        guard ensure(digits) else { return }
        let out = base.unsafelyUnwrapped + count
        var magnitude = value
        var i = digits
        repeat {
            i -= 1
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// Swift's shortest round-trip form of a finite Double (`description`; up to 15 characters it
    /// is a small String, with no allocation).
    private mutating func appendShortest(_ value: Double) {
        var text = value.description
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// A finite number: integral values without a fraction, others as Swift's shortest
    /// round-trip form. A non-finite value is a bug upstream and is written as 0.
    public mutating func number(_ value: Double) {
        separate()
        guard value.isFinite else {
            assertionFailure("non-finite number in a response")
            append(UInt8(ascii: "0"))
            return
        }
        if abs(value) <= 9_007_199_254_740_992, Double(Int(value)) == value {
            appendDecimal(Int(value))
        } else {
            appendShortest(value)
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    public mutating func null() {
        separate()
        append("null")
    }

    /// Writes a request value back out, equivalent to what the client sent (any depth,
    /// iterating over the tape rather than recursing).
    public mutating func value(_ source: JSONValue) {
        let document = source.document
        var i = source.index
        let end = source.end
        guard failure == nil else { return }
        // One entry per open container.
        var open: [Container] = []
        while i < end && failure == nil {
            let type = tjson_type_at(document, i)
            if open.last == .objectAwaitingKey && type != TJSON_OBJECT_END {
                JSONValue(document: document, index: i).withStringBytes { string(utf8: $0) }
                append(UInt8(ascii: ":"))
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
                appendDecimal(tjson_uint64(document, i))
            case TJSON_DOUBLE:
                separate()
                appendShortest(tjson_double(document, i))
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

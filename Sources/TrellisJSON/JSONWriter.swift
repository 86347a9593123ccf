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
    @usableFromInline var base: UnsafeMutablePointer<UInt8>?
    @usableFromInline var capacity: Int
    /// Bytes written so far.
    @usableFromInline var length = 0
    public var count: Int { length }
    /// True right after `[`, `{` or a key: the next value needs no comma.
    @usableFromInline var atStart = true
    /// The most bytes this answer may take.
    public private(set) var limit: Int
    /// Where the part being written must end (`limit` unless a part of the answer has a bound of its own).
    public private(set) var bound: Int
    /// Rule: every byte is written within `bound`: the fast paths write up to here, min(capacity, bound), so a
    /// part's bound holds even when the buffer grew past it for an earlier part (a batch's entries).
    @usableFromInline var writableEnd = 0
    private let budget: (any JSONWriterBudget)?
    /// Why writing stopped; nil while every byte fits.
    public internal(set) var failure: Failure?

    public enum Failure: Equatable, Sendable {
        /// The answer would pass `limit`.
        case tooLarge
        /// The memory budget or malloc refused the bytes.
        case outOfMemory
    }

    public init(capacity: Int = 512, limit: Int = .max, budget: (any JSONWriterBudget)? = nil) {
        self.limit = max(limit, 16)
        bound = self.limit
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
        writableEnd = wanted
    }

    deinit {
        if base != nil { budget?.release(capacity) }
        free(base)
    }

    /// A copy of what was written so far.
    public var bytes: [UInt8] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: length))
    }

    /// Hands the written bytes over without a copy: malloc'd memory to free() and the `held` bytes
    /// of it reserved from the budget, for the taker to give back. nil after a failure.
    public consuming func take() -> (base: UnsafeMutablePointer<UInt8>, count: Int, held: Int)? {
        guard let base, failure == nil else { return nil }
        // The taker owns the memory and its reservation now.
        self.base = nil
        return (base, length, capacity)
    }

    /// Makes room for `extra` more bytes; false (and `failure` set) when the answer may not grow.
    @inline(never) @usableFromInline
    mutating func reserve(_ extra: Int) -> Bool {
        guard failure == nil else { return false }
        guard extra <= bound - length else {
            failure = .tooLarge
            return false
        }
        guard length + extra > capacity else { return true }
        var grown = max(capacity * 2, 64)
        while grown < length + extra { grown *= 2 }
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
        writableEnd = min(capacity, bound)
        return true
    }

    /// Allocates room for about `size` more bytes up front (at most up to `bound`); a refusal
    /// here is not a failure, the writer grows as it writes.
    /// Fails the answer as out of memory (the caller could not take memory it needs to compute it).
    public mutating func failForMemory() {
        if failure == nil { failure = .outOfMemory }
    }

    public mutating func reserveCapacity(_ size: Int) {
        let size = length + min(size, bound - length)
        guard failure == nil && size > capacity else { return }
        // After earlier parts (a batch's entries) the buffer grows geometrically, so that parts don't copy it each time.
        _ = grow(to: length == 0 ? size : min(max(size, capacity * 2), limit))
    }

    /// A place in the answer to come back to.
    public struct Mark: Sendable {
        public let count: Int
        fileprivate let atStart: Bool
    }

    public var mark: Mark { Mark(count: length, atStart: atStart) }

    /// Takes back everything written after `mark` (and the failure that stopped it).
    public mutating func rewind(to mark: Mark) {
        length = min(length, mark.count)
        atStart = mark.atStart
        failure = nil
    }

    /// Rule: the answer may take up to `newLimit` bytes, when that is more than its limit (a request bounded as the body
    /// an earlier request sent); not while a part's bound is in force.
    public mutating func allow(upTo newLimit: Int) {
        guard newLimit > limit, bound == limit else { return }
        limit = newLimit
        bound = newLimit
        writableEnd = base == nil ? 0 : min(capacity, bound)
    }

    /// Rule: what follows may not pass `end` (nor `limit`); `bound(to: nil)` lifts it.
    public mutating func bound(to end: Int?) {
        bound = min(end ?? limit, limit)
        writableEnd = base == nil ? 0 : min(capacity, bound)
    }

    /// Room for `extra` more bytes: the common case is one comparison, growing is out of line.
    @inlinable @inline(__always)
    mutating func ensure(_ extra: Int) -> Bool {
        length + extra <= writableEnd || reserve(extra)
    }

    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard ensure(1) else { return }
        base.unsafelyUnwrapped[length] = byte
        length += 1
    }

    @inlinable @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, ensure(bytes.count), let source = bytes.baseAddress else { return }
        (base.unsafelyUnwrapped + length).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        length += bytes.count
    }

    @inlinable @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inlinable @inline(__always)
    mutating func separate() {
        if !atStart { append(UInt8(ascii: ",")) }
        atStart = false
    }

    @inlinable
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        atStart = true
    }

    @inlinable
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        atStart = false
    }

    @inlinable
    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        atStart = true
    }

    @inlinable
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        atStart = false
    }

    /// A member name the service chose (plain ASCII, nothing to escape), with its comma, quotes
    /// and colon written in one step.
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        let size = name.utf8CodeUnitCount
        guard ensure(size + 4) else { return }
        var out = base.unsafelyUnwrapped + length
        if !atStart {
            out.pointee = UInt8(ascii: ",")
            out += 1
        }
        out.pointee = UInt8(ascii: "\"")
        Self.copy(UnsafeRawPointer(name.utf8Start), to: out + 1, size)
        out += 1 + size
        out.pointee = UInt8(ascii: "\"")
        (out + 1).pointee = UInt8(ascii: ":")
        length = out + 2 - base.unsafelyUnwrapped
        atStart = true
    }

    /// Members another writer wrote (`"a":1,"b":[2]`, without the braces), added to the open object.
    public mutating func spliceMembers(_ written: UnsafeRawBufferPointer) {
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
        let plain = Self.plainPrefix(utf8)
        // Most strings need no escape: comma, quotes and bytes in one step.
        if plain == utf8.count, ensure(plain + 3) {
            var out = base.unsafelyUnwrapped + length
            if !atStart {
                out.pointee = UInt8(ascii: ",")
                out += 1
            }
            out.pointee = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { Self.copy(source, to: out + 1, plain) }
            out[1 + plain] = UInt8(ascii: "\"")
            length = out + 2 + plain - base.unsafelyUnwrapped
            atStart = false
            return
        }
        separate()
        append(UInt8(ascii: "\""))
        append(UnsafeRawBufferPointer(rebasing: utf8[..<plain]))
        var runStart = plain
        for i in plain..<utf8.count {
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

    /// Copies `count` bytes: 4 to 16 with two (overlapping) word moves, fewer in a loop, more with memcpy.
    @inlinable @inline(__always)
    static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt8>, _ count: Int) {
        let target = UnsafeMutableRawPointer(target)
        if count >= 8 && count <= 16 {
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (target + count - 8).storeBytes(of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), as: UInt64.self)
        } else if count >= 4 && count < 8 {
            target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (target + count - 4).storeBytes(of: source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), as: UInt32.self)
        } else if count < 4 {
            for i in 0..<count { target.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
    }

    /// How many leading bytes need no escape: eight at a time, then one by one.
    @inline(__always)
    private static func plainPrefix(_ utf8: UnsafeRawBufferPointer) -> Int {
        var i = 0
        while i + 8 <= utf8.count && !mayNeedEscape(utf8.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
        while i < utf8.count {
            let byte = utf8[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            i += 1
        }
        return i
    }

    /// True when one of the eight bytes is a control character, a quote or a backslash (the
    /// has-zero-byte and has-byte-below tests on a whole word; UTF-8's high bytes never trigger them).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20, or a zero byte after xor with a quote or a backslash, sets a high bit here.
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
    }

    @inlinable
    public mutating func int(_ value: Int) {
        separate()
        appendDecimal(value)
    }

    /// One check when there is room for a sign and 19 digits (nearly always); byte by byte, growing, otherwise.
    @inlinable @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        guard length &+ 20 <= writableEnd, let base else {
            if value < 0 { append(UInt8(ascii: "-")) }
            appendDecimal(UInt64(value.magnitude))
            return
        }
        var out = base + length
        if value < 0 {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        length = out + Self.writeDecimal(UInt64(value.magnitude), to: out) - base
    }

    @inlinable
    mutating func appendDecimal(_ value: UInt64) {
        let digits = Self.decimalDigits(value)
        guard ensure(digits) else { return }
        length &+= Self.writeDecimal(value, to: base.unsafelyUnwrapped + length)
    }

    /// Writes the decimal digits of `value` at `out` (at most 20, for a UInt64) and returns how many: below 10^8 (a
    /// layout's numbers, an outline's ids) as one or two groups of four digits, each digit by a multiplication and a
    /// shift; larger values two at a time.
    @inlinable @inline(__always)
    static func writeDecimal(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10_000 {
            let v = UInt32(truncatingIfNeeded: value)
            let digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4
            writeDigits(v, count: digits, to: out)
            return digits
        }
        if value < 100_000_000 {
            let v = UInt32(truncatingIfNeeded: value)
            let high = v / 10_000, low = v &- high &* 10_000
            let digits = high < 10 ? 5 : high < 100 ? 6 : high < 1000 ? 7 : 8
            writeDigits(high, count: digits &- 4, to: out)
            writeDigits(low, count: 4, to: out + (digits &- 4))
            return digits
        }
        let digits = decimalDigits(value)
        var rest = value
        var i = digits
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) * 2
            rest /= 100
            i -= 2
            out[i] = pairs.utf8Start[pair]
            out[i + 1] = pairs.utf8Start[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) * 2
            out[i - 2] = pairs.utf8Start[pair]
            out[i - 1] = pairs.utf8Start[pair + 1]
        } else {
            out[i - 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest)
        }
        return digits
    }

    /// The last `count` (1 to 4) decimal digits of `v` (below 10,000), zero-padded: v / 10 as (v × 6554) >> 16 and
    /// v / 100 as (v × 5243) >> 19, both exact below 10,000.
    @inlinable @inline(__always)
    static func writeDigits(_ v: UInt32, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        let hundreds = (v &* 5243) >> 19, low = v &- hundreds &* 100
        let tens = (low &* 6554) >> 16, units = low &- tens &* 10
        let highTens = (hundreds &* 6554) >> 16, highUnits = hundreds &- highTens &* 10
        switch count {
        case 1:
            out[0] = UInt8(truncatingIfNeeded: 48 &+ units)
        case 2:
            out[0] = UInt8(truncatingIfNeeded: 48 &+ tens)
            out[1] = UInt8(truncatingIfNeeded: 48 &+ units)
        case 3:
            out[0] = UInt8(truncatingIfNeeded: 48 &+ highUnits)
            out[1] = UInt8(truncatingIfNeeded: 48 &+ tens)
            out[2] = UInt8(truncatingIfNeeded: 48 &+ units)
        default:
            out[0] = UInt8(truncatingIfNeeded: 48 &+ highTens)
            out[1] = UInt8(truncatingIfNeeded: 48 &+ highUnits)
            out[2] = UInt8(truncatingIfNeeded: 48 &+ tens)
            out[3] = UInt8(truncatingIfNeeded: 48 &+ units)
        }
    }

    /// How many decimal digits `value` has.
    @inlinable @inline(__always)
    static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20 && value >= bound {
            digits += 1
            bound = bound &* 10
        }
        return digits
    }

    /// Swift's shortest round-trip form of a finite Double, the bytes of `description`, taken as Double writes
    /// them to a stream (as ASCII bytes, through `_writeASCII`): no String is made, so no allocation past 15 characters.
    @usableFromInline
    mutating func appendShortest(_ value: Double) {
        var sink = ShortestForm()
        value.write(to: &sink)
        if sink.overflowed {
            var text = value.description
            text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        } else {
            sink.withBytes { append($0) }
        }
    }

    /// A finite number: integral values without a fraction, others as Swift's shortest
    /// round-trip form. A non-finite value is a bug upstream and is written as 0.
    @inlinable
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

    /// Values `0..<count` of `value`, each as `number` writes it (with its comma): a layout's per-row arrays. Where
    /// 64 of them surely fit, the integral ones are written straight into the buffer (no room asked for each); the
    /// others, and every one near the buffer's end, go through `number`, so the bytes, and where the answer's bound
    /// stops them, are `number`'s.
    @inlinable
    public mutating func numbers(_ count: Int, _ value: (Int) -> Double) {
        var i = 0
        while i < count && failure == nil {
            let end = min(count, i &+ 64)
            // A comma, a sign and at most 16 digits (|v| ≤ 2^53).
            guard length &+ (end &- i) &* 18 <= writableEnd, let base else {
                number(value(i))
                i &+= 1
                continue
            }
            var out = base + length
            var other: Double?
            while i < end {
                let v = value(i)
                guard abs(v) <= 9_007_199_254_740_992, Double(Int(v)) == v else {
                    other = v
                    break
                }
                putInteger(Int(v), at: &out)
                i &+= 1
            }
            length = out - base
            if let other {
                number(other)
                i &+= 1
            }
        }
    }

    /// The bulk writers' comma before a value (none right after `[`), at `out`, which moves past it; room checked.
    @inlinable @inline(__always)
    mutating func putComma(at out: inout UnsafeMutablePointer<UInt8>) {
        if !atStart {
            out.pointee = UInt8(ascii: ",")
            out += 1
        }
        atStart = false
    }

    /// The bulk writers' integer with its comma and sign, at `out`, which moves past it; room (22 bytes) checked.
    @inlinable @inline(__always)
    mutating func putInteger(_ n: Int, at out: inout UnsafeMutablePointer<UInt8>) {
        putComma(at: &out)
        if n < 0 {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        out += Self.writeDecimal(UInt64(n.magnitude), to: out)
    }

    /// Values `0..<count` of `value`, each as `int` writes it (`numbers`' rule).
    @inlinable
    public mutating func ints(_ count: Int, _ value: (Int) -> Int) {
        var i = 0
        while i < count && failure == nil {
            let end = min(count, i &+ 64)
            // A comma, a sign and at most 20 digits.
            guard length &+ (end &- i) &* 22 <= writableEnd, let base else {
                int(value(i))
                i &+= 1
                continue
            }
            var out = base + length
            while i < end {
                putInteger(value(i), at: &out)
                i &+= 1
            }
            length = out - base
        }
    }

    /// Values `0..<count` of `value`, each as `bool` writes it (`numbers`' rule).
    @inlinable
    public mutating func bools(_ count: Int, _ value: (Int) -> Bool) {
        var i = 0
        while i < count && failure == nil {
            let end = min(count, i &+ 64)
            guard length &+ (end &- i) &* 6 <= writableEnd, let base else {
                bool(value(i))
                i &+= 1
                continue
            }
            var out = base + length
            while i < end {
                putComma(at: &out)
                if value(i) {
                    (out[0], out[1], out[2], out[3]) = (UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e"))
                    out += 4
                } else {
                    (out[0], out[1], out[2], out[3], out[4]) = (UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"))
                    out += 5
                }
                i &+= 1
            }
            length = out - base
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        guard ensure(5) else { return }
        let out = base.unsafelyUnwrapped + length
        if value {
            (out[0], out[1], out[2], out[3]) = (UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e"))
            length += 4
        } else {
            (out[0], out[1], out[2], out[3], out[4]) = (UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"))
            length += 5
        }
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

/// Where Double writes its shortest form: up to 32 bytes in place (the longest form of a finite Double has 24).
private struct ShortestForm: TextOutputStream {
    private var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0
    /// A write did not fit (never for a finite Double): the caller writes `description` instead.
    private(set) var overflowed = false

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        add(UnsafeRawBufferPointer(buffer))
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        guard count + bytes.count <= 32 else {
            overflowed = true
            return
        }
        let at = count
        withUnsafeMutableBytes(of: &inline) { $0.baseAddress.unsafelyUnwrapped.advanced(by: at).copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count) }
        count += bytes.count
    }

    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeBytes(of: inline) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }
}

import CSimdJSON
import Glibc

/// Valid client ids (ClientID.isValid) numbered in order of appearance and found again by value, straight
/// from simdjson's tape (`2` and `2.0` are the same id):
/// ids are hashed and compared by their JSON bytes (strings) or values (integers), so a million ids cost
/// two small integer arrays and no Swift String or Dictionary entry each.
///
/// Rule: ids are hashed with Swift's Hasher (SipHash, keyed with a random per-process seed), so a
/// client can't compute ids that pile into one probe sequence: lookups stay O(1) on any input.
///
/// Integer ids need no hashing while they allow it, in three modes that only ever move forward:
/// - dense: integers `base + entry` in order (`0, 1, 2, …`, a database's consecutive keys), found by subtraction;
/// - direct: integers in any order inside a window of at most `2 × expectedCount + 64` values (a tree's
///   ids `0..<n` in pre-order, say), found at `id - low` in an array of entries as large as the window;
/// - hashed: anything else.
/// The first id that breaks a mode indexes the entries so far once in the next. The window's array takes no more
/// memory than the slots would (4 bytes per value against 8 per expected id), and neither unhashed mode probes.
public struct IDTable {
    let document: tjson_document
    /// Tape index of each entry's id value; `UInt32.max` for an entry without a valid id.
    private(set) var values: [UInt32] = []
    /// Open addressing with linear probing: entry + 1, 0 for an empty slot; kept at most half full.
    /// Empty while the ids are dense.
    private var slots: [Int32] = []
    private var mask = 0
    private let expectedCount: Int
    /// While true, every valid id so far is the integer `base + entry` (base set by the first one).
    private var dense = true
    private var base: Int64?
    /// While not empty (direct mode), every valid id so far is an integer in `low ..< low + direct.count`, and
    /// `direct[id - low]` is its entry + 1 (0: no such id).
    private(set) var direct: [Int32] = []
    private var low: Int64 = 0
    /// Mixed into every hash on top of the process's own seed (tests vary it).
    private let seed: Int
    /// Occupied slots passed over so far while inserting (tests count them).
    private(set) var probes = 0

    static let none = UInt32.max

    /// A table for the ids of the document that holds `value`.
    public init(in value: JSONValue, expectedCount: Int = 16) {
        self.init(document: value.document, expectedCount: expectedCount)
    }

    init(document: tjson_document, expectedCount: Int = 16, seed: Int = 0) {
        self.document = document
        self.seed = seed
        self.expectedCount = expectedCount
        values.reserveCapacity(expectedCount)
    }

    public var count: Int { values.count }

    /// The id of `entry`, to write back or to quote (nil for an entry without a valid id).
    public func value(of entry: Int) -> JSONValue? {
        values[entry] == Self.none ? nil : JSONValue(document: document, index: Int(values[entry]))
    }

    /// Writes the id of `entry` back as the client gave it (`ClientID.write`; null for an entry without a valid
    /// id). A dense id is `base + entry`, written without reading the tape again.
    public func write(_ entry: Int, to json: inout JSONWriter) {
        let index = values[entry]
        if index == Self.none {
            json.null()
        } else if dense, let base {
            json.int(Int(base &+ Int64(entry)))
        } else {
            ClientID.write(JSONValue(document: document, index: Int(index)), to: &json)
        }
    }

    /// Numbers the id at `value` (nil: the entry has no valid id) and indexes it; when an earlier entry
    /// has the same id, the new entry is numbered but not indexed, and the earlier one is returned.
    public mutating func append(_ value: JSONValue?) -> Int? {
        let entry = values.count
        guard let value else {
            values.append(Self.none)
            return nil
        }
        if dense {
            // Dense: the id's value less its entry is the run's base (distinct by construction).
            if let id = value.int64, case let (offset, overflow) = id.subtractingReportingOverflow(Int64(entry)),
               !overflow, offset == (base ?? offset) {
                base = offset
                values.append(UInt32(value.index))
                return nil
            }
            leaveDense(for: value)
        }
        if !direct.isEmpty {
            if let id = value.int64, case let (offset, overflow) = id.subtractingReportingOverflow(low), !overflow,
               offset >= 0, offset < Int64(direct.count) {
                let slot = Int(offset)
                values.append(UInt32(value.index))
                if direct[slot] != 0 { return Int(direct[slot] - 1) }
                direct[slot] = Int32(entry + 1)
                return nil
            }
            leaveDirect()
        }
        if (entry + 1) * 2 > slots.count { grow() }
        values.append(UInt32(value.index))
        var slot = hash(value.index) & mask
        while slots[slot] != 0 {
            probes += 1
            let other = Int(slots[slot] - 1)
            if same(Int(values[other]), value.index) { return other }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(entry + 1)
        return nil
    }

    /// The entry whose id equals the value, if any.
    public func entry(of value: JSONValue) -> Int? {
        if dense {
            guard let base, let id = value.int64 else { return nil }
            let (entry, overflow) = id.subtractingReportingOverflow(base)
            guard !overflow, entry >= 0, entry < values.count, values[Int(entry)] != Self.none else { return nil }
            return Int(entry)
        }
        if !direct.isEmpty {
            guard let id = value.int64, case let (slot, overflow) = id.subtractingReportingOverflow(low), !overflow,
                  slot >= 0, slot < Int64(direct.count), direct[Int(slot)] != 0 else { return nil }
            return Int(direct[Int(slot)] - 1)
        }
        var slot = hash(value.index) & mask
        while slots[slot] != 0 {
            let other = Int(slots[slot] - 1)
            if same(Int(values[other]), value.index) { return other }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The run of dense ids is broken by `value`: the entries so far go into the window when it and they fit one,
    /// else into slots.
    private mutating func leaveDense(for value: JSONValue) {
        dense = false
        let window = Int64(2 * max(expectedCount, values.count + 1) + 64)
        // The run so far is base ..< base + values.count (all of it, when base is nil: no valid id yet).
        // Client ids are at most 2^53 in magnitude (ClientID), so these sums can't overflow; other values are hashed.
        if let id = value.int64, id.magnitude <= 1 << 53, (base?.magnitude ?? 0) <= 1 << 53 {
            let first = base.map { min($0, id) } ?? id
            let last = base.map { max($0 + Int64(values.count) - 1, id) } ?? id
            if last - first < window {
                low = first
                direct = [Int32](repeating: 0, count: Int(window))
                if let base {
                    for entry in values.indices where values[entry] != Self.none {
                        direct[Int(base + Int64(entry) - low)] = Int32(entry + 1)
                    }
                }
                return
            }
        }
        leaveDirect()
    }

    /// An id falls outside the window (or is not an integer): the entries so far go into slots sized for what is
    /// expected.
    private mutating func leaveDirect() {
        direct = []
        var size = 16
        while size < max(expectedCount, values.count + 1) * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size / 2)
        grow()
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for entry in values.indices where values[entry] != Self.none {
            var slot = hash(Int(values[entry])) & mask
            var duplicate = false
            while slots[slot] != 0 {
                probes += 1
                if same(Int(values[Int(slots[slot] - 1)]), Int(values[entry])) { duplicate = true; break }
                slot = (slot + 1) & mask
            }
            if !duplicate { slots[slot] = Int32(entry + 1) }
        }
    }

    /// Strings by their bytes, integers by their value; the kinds never collide in `same`. Integers
    /// and strings of up to 7 bytes (packed with their length, so no two pack alike) take Swift's
    /// one-word SipHash, longer strings its streaming Hasher: the same keyed function, fewer rounds
    /// of setup for the short ids most requests use.
    func hash(_ index: Int) -> Int {
        guard tjson_type_at(document, index) == TJSON_STRING else {
            return Self.hash(integer: integer(index), seed: seed)
        }
        var length = 0
        let bytes = tjson_string(document, index, &length)
        return Self.hash(string: UnsafeRawBufferPointer(start: bytes, count: length), seed: seed)
    }

    static func hash(integer: Int64, seed: Int) -> Int {
        integer._rawHashValue(seed: seed)
    }

    static func hash(string bytes: UnsafeRawBufferPointer, seed: Int) -> Int {
        guard bytes.count > 7 else {
            var packed = UInt64(bytes.count) << 56
            for i in 0..<bytes.count { packed |= UInt64(bytes[i]) << (8 * i) }
            return packed._rawHashValue(seed: seed)
        }
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// A valid integer id's value, whether written `2` or `2.0`.
    private func integer(_ index: Int) -> Int64 {
        JSONValue(document: document, index: index).int64 ?? 0
    }

    private func same(_ a: Int, _ b: Int) -> Bool {
        let aString = tjson_type_at(document, a) == TJSON_STRING
        guard aString == (tjson_type_at(document, b) == TJSON_STRING) else { return false }
        if !aString { return integer(a) == integer(b) }
        var n = 0, m = 0
        let x = tjson_string(document, a, &n), y = tjson_string(document, b, &m)
        return n == m && sameBytes(x, y, n)
    }
}

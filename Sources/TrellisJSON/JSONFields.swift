import CSimdJSON

/// The member names a reader looks for (at most `JSONKeys.capacity`), matched against an object's keys in one
/// pass by `JSONValue.fields(_:)`: a reader's own names (`JSONMember`) or names a request gives (an outline's
/// `idKey`). A key is compared only with the names of its length, found by one table lookup (`tjson_find_members`).
public final class JSONKeys: @unchecked Sendable {
    // @unchecked: written only by init; every reader shares it.
    /// The most names one lookup holds.
    public static let capacity = 32

    /// The names' bytes, their starts and the names by length, in one allocation that `table` points into.
    private let storage: UnsafeMutableRawPointer
    @usableFromInline let table: tjson_keys
    public let count: Int

    /// `names`: distinct, at most `capacity` of them.
    public init(_ names: [String]) {
        precondition(names.count <= Self.capacity, "a lookup holds at most \(Self.capacity) names")
        var total = 0
        var longest = 0
        for name in names {
            total += name.utf8.count
            longest = max(longest, name.utf8.count)
        }
        let lengths = longest + 1
        let startsOffset = (total + 7) & ~7
        let byLengthOffset = startsOffset + (names.count + 1) * MemoryLayout<Int>.stride
        storage = .allocate(byteCount: byLengthOffset + lengths * 4, alignment: 8)
        let bytes = storage.bindMemory(to: UInt8.self, capacity: total)
        let starts = (storage + startsOffset).bindMemory(to: Int.self, capacity: names.count + 1)
        let byLength = (storage + byLengthOffset).bindMemory(to: UInt32.self, capacity: lengths)
        byLength.initialize(repeating: 0, count: lengths)
        var start = 0
        for (i, name) in names.enumerated() {
            (starts + i).initialize(to: start)
            for byte in name.utf8 {
                (bytes + start).initialize(to: byte)
                start += 1
            }
            byLength[name.utf8.count] |= 1 << UInt32(i)
        }
        (starts + names.count).initialize(to: start)
        table = tjson_keys(bytes: bytes, starts: starts, by_length: byLength, lengths: lengths)
        count = names.count
    }

    deinit { storage.deallocate() }

    /// The `i`-th name.
    public func name(_ i: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: table.bytes + table.starts[i], count: table.starts[i + 1] - table.starts[i]), as: UTF8.self)
    }
}

/// The members a reader reads, named by an enum whose cases are spelled as the members are
/// (`enum Member: Int, JSONMember { case containerWidth, items }`), each with its table made once
/// (`static let keys = JSONKeys(Member.self)`).
public protocol JSONMember: CaseIterable, RawRepresentable where RawValue == Int {
    static var keys: JSONKeys { get }
}

extension JSONKeys {
    /// The names of `Member`'s cases, in their order (a case's raw value is its number).
    public convenience init<Member: JSONMember>(_: Member.Type) {
        precondition(Member.allCases.enumerated().allSatisfy { $0.offset == $0.element.rawValue }, "cases numbered in order")
        self.init(Member.allCases.map { "\($0)" })
    }
}

/// An object's members found by one pass over it (`JSONValue.fields(_:)`): the value of each name looked for,
/// the last of duplicate keys winning, as in JavaScript; keys no name matches are ignored.
public struct JSONFields {
    /// The object (for problems about a missing member); its document holds the values.
    public let object: JSONValue
    /// Each name's value, as its tape index (0, the root's word, for none).
    @usableFromInline var found: InlineArray<32, Int32>

    @inlinable
    init(object: JSONValue, keys: JSONKeys) {
        self.object = object
        var found = InlineArray<32, Int32>(repeating: 0)
        if tjson_type_at(object.document, object.index) == TJSON_OBJECT {
            withUnsafePointer(to: keys.table) { table in
                withUnsafeMutablePointer(to: &found) { slots in
                    slots.withMemoryRebound(to: Int32.self, capacity: 32) { slots in
                        tjson_find_members(object.document, object.index, table, slots)
                    }
                }
            }
        }
        self.found = found
    }

    /// The value of the `i`-th name; nil when absent.
    @inlinable
    public subscript(_ i: Int) -> JSONValue? {
        let index = Int(found[i])
        return index == 0 ? nil : JSONValue(document: object.document, index: index)
    }

    /// The value of `member`; nil when absent.
    @inlinable
    public subscript<Member: JSONMember>(_ member: Member) -> JSONValue? { self[member.rawValue] }

    /// A member that must be present (null counts as present).
    @inlinable
    public func required<Member: JSONMember>(_ member: Member, _ problems: inout Problems) -> JSONValue? {
        guard let value = self[member] else {
            problems.add(at: object, member: Member.keys.name(member.rawValue), "is required")
            return nil
        }
        return value
    }

    /// A member that may be absent; null means absent.
    @inlinable
    public func optional<Member: JSONMember>(_ member: Member) -> JSONValue? {
        guard let value = self[member], !value.isNull else { return nil }
        return value
    }
}

extension JSONValue {
    /// The members named by `keys`, in one pass (none when this is not an object).
    @inlinable
    public func fields(_ keys: JSONKeys) -> JSONFields { JSONFields(object: self, keys: keys) }

    /// The members a reader reads, in one pass (none when this is not an object).
    @inlinable
    public func fields<Member: JSONMember>(_: Member.Type) -> JSONFields { JSONFields(object: self, keys: Member.keys) }

    /// The member named `name` (the last of duplicate keys), for tools and tests that look one member up.
    public func member(_ name: String) -> JSONValue? { fields(JSONKeys([name]))[0] }
}

/// The ranges of a search's matches for a list of entries (nodes, or rows), in order: each a half-open
/// [start, end) in UTF-16 code units of the entry's label, kept as two bytes each (a searched label has at most
/// `OutlineSearch.maxLabelBytes` bytes, so at most as many UTF-16 code units), and where each entry's ranges begin.
/// At most 4 bytes per label byte (a range covers one code unit or more) and 4 per entry.
public struct OutlineMatchRanges: Sendable, Equatable {
    private var bounds: [UInt16] = []
    private var firsts: [UInt32] = [0]

    /// No entry yet.
    public init() {}

    /// The entries ended so far.
    public var count: Int { firsts.count - 1 }

    mutating func reserve(entries: Int) { firsts.reserveCapacity(entries + 1) }

    /// The next range of the entry being filled.
    mutating func append(_ start: Int, _ end: Int) {
        bounds.append(UInt16(truncatingIfNeeded: start))
        bounds.append(UInt16(truncatingIfNeeded: end))
    }

    /// The ranges appended since the last call are the next entry's.
    mutating func endEntry() { firsts.append(UInt32(truncatingIfNeeded: bounds.count)) }

    /// Calls `body` with each range of `entry`, in order (none for an entry past `count`).
    public func forEach(of entry: Int, _ body: (Int, Int) -> Void) {
        guard entry >= 0, entry + 1 < firsts.count else { return }
        var i = Int(firsts[entry])
        let end = Int(firsts[entry + 1])
        while i < end {
            body(Int(bounds[i]), Int(bounds[i + 1]))
            i += 2
        }
    }
}

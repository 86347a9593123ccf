/// The characters an `@font-face` rule's `unicode-range` lets its face show: ranges of code points, kept sorted
/// and merged.
public struct UnicodeRangeSet: Hashable, Sendable {
    /// Disjoint, sorted, not adjacent.
    public let ranges: [ClosedRange<UInt32>]

    /// The union of `ranges` (each lower ≤ upper).
    public init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    /// Whether the set holds `scalar` (a binary search).
    public func contains(_ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar {
                low = middle + 1
            } else if ranges[middle].lowerBound > scalar {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}

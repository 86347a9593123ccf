@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
extension OutlineSearch {
    /// Rule: a searched label has at most 4,096 bytes of UTF-8, like a string id, so that searching one costs a
    /// bounded amount (and its ranges fit in two bytes each).
    public static let maxLabelBytes = 4096

    /// Appends the nodes 0..<count in order, each label read once through `labels` (its bytes, or nil when the node
    /// has no label: it never matches). Rule: a label longer than `maxLabelBytes` is refused, and matches nothing
    /// meanwhile. With `ranges`, each node's ranges are kept as it is matched (`appendNode(label:meter:ranges:)`),
    /// one entry per node. Nil, or why the search gives no answer: every node whose label is too long, or `.stopped`
    /// as soon as the meter says stop.
    public mutating func matchNodes(
        count: Int, labels: (Int) -> UnsafeRawBufferPointer?, keeping ranges: inout OutlineMatchRanges?, meter: inout WorkMeter
    ) -> OutlineSearchRefusal? {
        var tooLong: [Int] = []
        if ranges == nil {
            for node in 0..<count {
                appendNode(label: searched(node, labels, &tooLong), meter: &meter)
                if meter.isStopped { return .stopped }
            }
        } else {
            ranges?.reserve(entries: count)
            for node in 0..<count {
                appendNode(label: searched(node, labels, &tooLong), meter: &meter) { start, end in ranges?.append(start, end) }
                ranges?.endEntry()
                if meter.isStopped { return .stopped }
            }
        }
        return tooLong.isEmpty ? nil : .labelsTooLong(tooLong)
    }

    /// Rule: a matching row has its ranges; an ancestor only on the way has none. One entry per row of `rows`, in
    /// order, after `matchNodes`: each matching row's label read through `labels` and scanned once more. Nil once the
    /// meter says stop.
    public mutating func ranges(
        ofRows rows: [OutlineRow], labels: (Int) -> UnsafeRawBufferPointer?, meter: inout WorkMeter
    ) -> OutlineMatchRanges? {
        var found = OutlineMatchRanges()
        found.reserve(entries: rows.count)
        for row in rows {
            if matches.isMatch(row.node), let label = labels(row.node) {
                ranges(in: label, meter: &meter) { start, end in found.append(start, end) }
                if meter.isStopped { return nil }
            }
            found.endEntry()
        }
        return found
    }

    /// A node's label as it is searched: nil when it has none, or when it is too long (then listed in `tooLong`).
    @inline(__always)
    private func searched(_ node: Int, _ labels: (Int) -> UnsafeRawBufferPointer?, _ tooLong: inout [Int]) -> UnsafeRawBufferPointer? {
        guard let label = labels(node) else { return nil }
        guard label.count <= Self.maxLabelBytes else {
            tooLong.append(node)
            return nil
        }
        return label
    }
}

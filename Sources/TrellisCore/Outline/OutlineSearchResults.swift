extension OutlineTree {
    /// For each node, whether some strict descendant matches: one pass in reverse pre-order, O(n).
    func hasMatchBelow(_ matches: OutlineSearchMatches) -> [Bool] {
        precondition(matches.nodeCount == count, "one search entry per node")
        var below = [Bool](repeating: false, count: count)
        for k in stride(from: count - 1, to: 0, by: -1) {
            let v = Int(preOrder[k])
            let p = Int(parents[v])
            if p >= 0 && (below[v] || matches.isMatch(v)) { below[p] = true }
        }
        return below
    }
}

@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
extension OutlineRows {
    /// The rows of a search: every label matched (each read once through `labels`: a node's label bytes, or nil when
    /// it has none), the rows of the matches and their ancestors (`rows(tree:selection:matches:offset:limit:)`), and
    /// the ranges of each matching row in the window (`OutlineSearch.ranges(ofRows:labels:meter:)`). Time and memory O(n)
    /// plus a step per label byte and per occurrence taken on `meter`; the refusal lists every node whose label is
    /// too long, or says that the meter said stop.
    public static func compute(
        _ input: OutlineRowsSearchInput, labels: (Int) -> UnsafeRawBufferPointer?, meter: inout WorkMeter
    ) -> Result<OutlineRowsOutput, OutlineSearchRefusal> {
        var search = input.search
        var noRanges: OutlineMatchRanges?
        if let refusal = search.matchNodes(count: input.tree.count, labels: labels, keeping: &noRanges, meter: &meter) {
            return .failure(refusal)
        }
        let matches = search.matches
        let window = rows(tree: input.tree, selection: input.selection, matches: matches, offset: input.offset, limit: input.limit)
        guard let ranges = search.ranges(ofRows: window.rows, labels: labels, meter: &meter) else { return .failure(.stopped) }
        return .success(OutlineRowsOutput(
            rows: window.rows, totalRows: window.totalRows, selectedRow: window.selectedRow, matches: matches, ranges: ranges))
    }
}

extension OutlineRows {
    /// Rule: with a search, the rows are the matching nodes and the ancestors of matching nodes, in pre-order;
    /// a node is expanded exactly when some descendant matches, whatever `expanded` says.
    /// `selection`, `offset` and `limit` as without a search, over these rows. Time and memory O(n).
    static func rows(tree: OutlineTree, selection: Int?, matches: OutlineSearchMatches, offset: Int, limit: Int?) -> OutlineRowsOutput {
        let below = tree.hasMatchBelow(matches)
        var end = Int.max
        if let limit {
            let (sum, overflow) = offset.addingReportingOverflow(limit)
            if !overflow { end = sum }
        }
        var rows = [OutlineRow]()
        var selectedRow: Int?
        var index = 0
        var position = 0
        while position < tree.count {
            let node = Int(tree.preOrder[position])
            let open = below[node]
            // Rule: a subtree with no match is skipped in one step by its size.
            guard open || matches.isMatch(node) else {
                position += Int(tree.subtreeSizes[node])
                continue
            }
            let selected = node == selection
            if selected { selectedRow = index }
            if index >= offset && index < end {
                let parent = tree.parents[node]
                rows.append(OutlineRow(
                    index: index, node: node, depth: Int(tree.depths[node]),
                    parent: parent < 0 ? nil : Int(parent),
                    expandable: tree.expandable[node], expanded: open, selected: selected))
            }
            index += 1
            position += open ? 1 : Int(tree.subtreeSizes[node])
        }
        return OutlineRowsOutput(rows: rows, totalRows: index, selectedRow: selectedRow)
    }
}

/// A search's expansion to compute: the tree and the search over its labels (read as it is computed).
@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
public struct OutlineSearchExpansionInput: Sendable {
    public var tree: OutlineTree
    public var search: OutlineSearch

    public init(tree: OutlineTree, search: OutlineSearch) {
        self.tree = tree
        self.search = search
    }
}

/// What to expand so that every match of a search is visible, the matches themselves and their ranges.
public struct OutlineSearchExpansionOutput: Sendable, Equatable {
    /// The strict ancestors of every matching node, without duplicates, in pre-order.
    public let expand: [Int]
    /// The matching nodes in pre-order.
    public let matches: [Int]
    /// Each matching node's ranges, by node index (every node has an entry; one that does not match has none).
    public let ranges: OutlineMatchRanges

    /// An expansion as made elsewhere (tests).
    public init(expand: [Int], matches: [Int], ranges: OutlineMatchRanges = OutlineMatchRanges()) {
        self.expand = expand
        self.matches = matches
        self.ranges = ranges
    }
}

/// A search's expansion: what to open so that every match is visible.
public enum OutlineSearchExpansion {
    /// Every label matched, each read and scanned once through `labels` (a node's label bytes, or nil when it has
    /// none), its ranges kept as it is matched (`appendNode(label:meter:ranges:)`: a label is scanned twice only
    /// while at most half of them match), then the expansion of the matches (`expansion(tree:matches:)`). Time and
    /// memory O(n) plus a step per label byte and per occurrence taken on `meter`; the refusal lists every node whose
    /// label is too long, or says that the meter said stop.
    @available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
    public static func compute(
        _ input: OutlineSearchExpansionInput, labels: (Int) -> UnsafeRawBufferPointer?, meter: inout WorkMeter
    ) -> Result<OutlineSearchExpansionOutput, OutlineSearchRefusal> {
        var search = input.search
        var ranges: OutlineMatchRanges? = OutlineMatchRanges()
        if let refusal = search.matchNodes(count: input.tree.count, labels: labels, keeping: &ranges, meter: &meter) {
            return .failure(refusal)
        }
        return .success(expansion(tree: input.tree, matches: search.matches, ranges: ranges ?? OutlineMatchRanges()))
    }

    /// Rule: `expand` is the union of the strict ancestors of every match, in pre-order (the matches' `ranges` kept as
    /// given). Time and memory O(n).
    public static func expansion(
        tree: OutlineTree, matches: OutlineSearchMatches, ranges: OutlineMatchRanges = OutlineMatchRanges()
    ) -> OutlineSearchExpansionOutput {
        let below = tree.hasMatchBelow(matches)
        var expand = [Int]()
        var found = [Int]()
        found.reserveCapacity(matches.matchCount)
        for v in tree.preOrder {
            let node = Int(v)
            if below[node] { expand.append(node) }
            if matches.isMatch(node) { found.append(node) }
        }
        return OutlineSearchExpansionOutput(expand: expand, matches: found, ranges: ranges)
    }
}

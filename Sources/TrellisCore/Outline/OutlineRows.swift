/// Rows to compute: the tree, the selection (a node index, or nil when absent or not found), which nodes are
/// shown open, and the window (`offset` ≥ 0; `limit` ≥ 0 or nil for all).
public struct OutlineRowsInput: Sendable {
    /// Which nodes are open.
    public enum Shown: Sendable {
        /// These node indices, or nil for the default (the expansion set of the selection).
        case expanded([Int]?)
        /// A search's: the matches and their ancestors, each ancestor open.
        case matches(OutlineSearchMatches)
    }

    public var tree: OutlineTree
    public var selection: Int?
    public var shown: Shown
    public var offset: Int
    public var limit: Int?

    public init(tree: OutlineTree, selection: Int?, expanded: [Int]?, offset: Int = 0, limit: Int? = nil) {
        self.init(tree: tree, selection: selection, shown: .expanded(expanded), offset: offset, limit: limit)
    }

    public init(tree: OutlineTree, selection: Int?, matches: OutlineSearchMatches, offset: Int = 0, limit: Int? = nil) {
        self.init(tree: tree, selection: selection, shown: .matches(matches), offset: offset, limit: limit)
    }

    public init(tree: OutlineTree, selection: Int?, shown: Shown, offset: Int, limit: Int?) {
        precondition(offset >= 0 && (limit ?? 0) >= 0, "offset and limit are validated by the API layer")
        self.tree = tree
        self.selection = selection
        self.shown = shown
        self.offset = offset
        self.limit = limit
    }
}

/// The visible rows of an outline, windowed by offset and limit, with the totals a virtualized list needs.
public struct OutlineRowsOutput: Sendable, Equatable {
    /// The rows in the window, in pre-order.
    public let rows: [OutlineRow]
    /// Visible rows before windowing.
    public let totalRows: Int
    /// Index of the selected node's row among all visible rows; nil when not visible or no selection.
    public let selectedRow: Int?
    /// With a search (`compute(_:labels:meter:)`): which nodes match.
    public let matches: OutlineSearchMatches?
    /// With a search: the ranges of each row of `rows` that matches, by its position in `rows`.
    public let ranges: OutlineMatchRanges?

    /// Rows as made elsewhere (tests, caches).
    public init(rows: [OutlineRow], totalRows: Int, selectedRow: Int?) {
        self.init(rows: rows, totalRows: totalRows, selectedRow: selectedRow, matches: nil, ranges: nil)
    }

    /// Rows of a search, with which nodes match and the ranges of each row (by its position in `rows`).
    public init(rows: [OutlineRow], totalRows: Int, selectedRow: Int?, matches: OutlineSearchMatches?, ranges: OutlineMatchRanges?) {
        self.rows = rows
        self.totalRows = totalRows
        self.selectedRow = selectedRow
        self.matches = matches
        self.ranges = ranges
    }
}

/// The outline picker's rows.
public enum OutlineRows {
    /// The rows of `input`: with `expanded`, time O(visible rows) and memory O(n) for the expanded flags plus
    /// O(rows in the window); with a search's matches, time and memory O(n).
    public static func compute(_ input: OutlineRowsInput) -> OutlineRowsOutput {
        switch input.shown {
        case .expanded(let expanded):
            return rows(tree: input.tree, selection: input.selection, expanded: expanded, offset: input.offset, limit: input.limit)
        case .matches(let matches):
            return rows(tree: input.tree, selection: input.selection, matches: matches, offset: input.offset, limit: input.limit)
        }
    }

    /// `expanded`: node indices, or nil for the default (the expansion set of `selection`).
    static func rows(tree: OutlineTree, selection: Int?, expanded: [Int]?, offset: Int, limit: Int?) -> OutlineRowsOutput {
        var isExpanded = [Bool](repeating: false, count: tree.count)
        for node in expanded ?? OutlineExpansion.defaultExpanded(in: tree, selection: selection) {
            isExpanded[node] = true
        }
        var end = Int.max
        if let limit {
            let (sum, overflow) = offset.addingReportingOverflow(limit)
            if !overflow { end = sum }
        }

        var rows = [OutlineRow]()
        // At most the rows of the window; pages reserved and not written are not made resident.
        rows.reserveCapacity(max(0, min(limit ?? tree.count, tree.count - min(offset, tree.count))))
        var selectedRow: Int?
        var index = 0
        var position = 0
        // Rule: rows come in pre-order; a collapsed node's subtree is skipped in one step by its size.
        while position < tree.count {
            let node = Int(tree.preOrder[position])
            // Rule: a node that is not expandable is never shown expanded, even when `expanded` lists it.
            let open = tree.expandable[node] && isExpanded[node]
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

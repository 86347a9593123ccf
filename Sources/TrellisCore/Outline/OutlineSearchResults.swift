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

/// A search's expansion to compute: the tree and which of its nodes match.
public struct OutlineSearchExpansionInput: Sendable {
    public var tree: OutlineTree
    public var matches: OutlineSearchMatches

    public init(tree: OutlineTree, matches: OutlineSearchMatches) {
        self.tree = tree
        self.matches = matches
    }
}

/// What to expand so that every match of a search is visible, and the matches themselves.
public struct OutlineSearchExpansionOutput: Sendable, Equatable {
    /// The strict ancestors of every matching node, without duplicates, in pre-order.
    public let expand: [Int]
    /// The matching nodes in pre-order.
    public let matches: [Int]

    /// An expansion as made elsewhere (tests).
    public init(expand: [Int], matches: [Int]) {
        self.expand = expand
        self.matches = matches
    }

}

/// A search's expansion: what to open so that every match is visible.
public enum OutlineSearchExpansion {
    /// Rule: `expand` is the union of the strict ancestors of every match, in pre-order. Time and memory O(n).
    public static func compute(_ input: OutlineSearchExpansionInput) -> OutlineSearchExpansionOutput {
        let tree = input.tree, matches = input.matches
        let below = tree.hasMatchBelow(matches)
        var expand = [Int]()
        var found = [Int]()
        found.reserveCapacity(matches.matchCount)
        for v in tree.preOrder {
            let node = Int(v)
            if below[node] { expand.append(node) }
            if matches.isMatch(node) { found.append(node) }
        }
        return OutlineSearchExpansionOutput(expand: expand, matches: found)
    }
}

/// An expansion to compute: the tree and the selections (node indices in request order; nil for a selection whose
/// id is not in the tree).
public struct OutlineExpansionInput: Sendable {
    public var tree: OutlineTree
    public var selections: [Int?]

    public init(tree: OutlineTree, selections: [Int?]) {
        self.tree = tree
        self.selections = selections
    }
}

/// The nodes to expand so that every found selection is visible, and each selection's path from its root.
public struct OutlineExpansionOutput: Sendable, Equatable {
    /// Union of the strict ancestors of every found selection, without duplicates, in tree pre-order.
    public let expand: [Int]
    /// One entry per selection, in request order: root → selection, or [] when not found.
    public let paths: [[Int]]

    /// An expansion as made elsewhere (tests, caches).
    public init(expand: [Int], paths: [[Int]]) {
        self.expand = expand
        self.paths = paths
    }

}

/// The outline's expansion: what to open so that the selections are visible.
public enum OutlineExpansion {
    /// Cost: O(size of the answer) parent-link steps, plus ordering the ancestors (sort or one O(n) scan).
    public static func compute(_ input: OutlineExpansionInput) -> OutlineExpansionOutput {
        let tree = input.tree
        // Rule: a selection that is absent or not found has the path [] and expands nothing.
        return OutlineExpansionOutput(
            expand: ancestors(in: tree, of: input.selections),
            paths: input.selections.map { selection in selection.map { tree.path(to: $0) } ?? [] })
    }

    /// Rule: without an explicit `expanded`, the rows expand exactly what makes the selection visible.
    public static func defaultExpanded(in tree: OutlineTree, selection: Int?) -> [Int] {
        ancestors(in: tree, of: [selection])
    }

    static func ancestors(in tree: OutlineTree, of selections: [Int?]) -> [Int] {
        guard selections.contains(where: { $0 != nil }) else { return [] }
        var marked = [Bool](repeating: false, count: tree.count)
        var found = [Int32]()
        for case let selection? in selections {
            var u = Int(tree.parents[selection])
            while u >= 0 && !marked[u] {
                marked[u] = true
                found.append(Int32(u))
                u = Int(tree.parents[u])
            }
        }
        let m = found.count
        // Rule: `expand` is in tree pre-order: sort the ancestors' positions or, when that costs more, scan the pre-order once.
        if m * (Int.bitWidth - m.leadingZeroBitCount) > tree.count {
            var ordered = [Int]()
            ordered.reserveCapacity(m)
            for v in tree.preOrder where marked[Int(v)] {
                ordered.append(Int(v))
            }
            return ordered
        }
        return found.map { tree.preIndex[Int($0)] }.sorted().map { Int(tree.preOrder[Int($0)]) }
    }
}

/// One visible row of an outline: its position among visible rows, node, depth, parent and flags.
public struct OutlineRow: Sendable, Equatable {
    /// Position among all visible rows, also inside a window.
    public var index: Int
    /// The node's index in the tree.
    public var node: Int
    /// Roots are at depth 0.
    public var depth: Int
    /// The parent's index, or nil for a root.
    public var parent: Int?
    /// The node has children (or, nested, a children array).
    public var expandable: Bool
    /// Expandable and in the expanded set.
    public var expanded: Bool
    /// The node is the selection.
    public var selected: Bool

    /// A row as OutlineRows makes it.
    public init(index: Int, node: Int, depth: Int, parent: Int?, expandable: Bool, expanded: Bool, selected: Bool) {
        self.index = index
        self.node = node
        self.depth = depth
        self.parent = parent
        self.expandable = expandable
        self.expanded = expanded
        self.selected = selected
    }
}

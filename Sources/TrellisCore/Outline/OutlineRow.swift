/// One visible row of an outline: its position among visible rows, node, depth, parent and flags.
public struct OutlineRow: Sendable, Equatable {
    /// Position among all visible rows, also inside a window.
    public var index: Int
    public var node: Int
    public var depth: Int
    /// The parent's index, or nil for a root.
    public var parent: Int?
    public var expandable: Bool
    /// Expandable and in the expanded set.
    public var expanded: Bool
    public var selected: Bool

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

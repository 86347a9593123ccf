/// One visible row of an outline: its position among visible rows, node, depth, parent and flags.
/// 20 bytes: positions, nodes and depths are kept in 32 bits (a tree has at most a few million nodes).
public struct OutlineRow: Sendable, Equatable {
    private var storedIndex: Int32
    private var storedNode: Int32
    private var storedDepth: Int32
    /// -1 for a root.
    private var storedParent: Int32
    /// The node has children (or, nested, a children array).
    public var expandable: Bool
    /// Expandable and in the expanded set.
    public var expanded: Bool
    /// The node is the selection.
    public var selected: Bool

    /// Position among all visible rows, also inside a window.
    public var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int32(truncatingIfNeeded: newValue) }
    }

    /// The node's index in the tree.
    public var node: Int {
        get { Int(storedNode) }
        set { storedNode = Int32(truncatingIfNeeded: newValue) }
    }

    /// Roots are at depth 0.
    public var depth: Int {
        get { Int(storedDepth) }
        set { storedDepth = Int32(truncatingIfNeeded: newValue) }
    }

    /// The parent's index, or nil for a root.
    public var parent: Int? {
        get { storedParent < 0 ? nil : Int(storedParent) }
        set { storedParent = newValue.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
    }

    /// A row as OutlineRows.compute makes it.
    public init(index: Int, node: Int, depth: Int, parent: Int?, expandable: Bool, expanded: Bool, selected: Bool) {
        storedIndex = Int32(truncatingIfNeeded: index)
        storedNode = Int32(truncatingIfNeeded: node)
        storedDepth = Int32(truncatingIfNeeded: depth)
        storedParent = parent.map { Int32(truncatingIfNeeded: $0) } ?? -1
        self.expandable = expandable
        self.expanded = expanded
        self.selected = selected
    }
}

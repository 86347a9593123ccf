/// One visible row in client ids, as the recursive model renders it.
public struct RefRow: Equatable, Sendable {
    public var id: Int
    public var depth: Int
    public var parent: Int?
    public var expandable: Bool
    public var expanded: Bool
    public var selected: Bool

    public init(id: Int, depth: Int, parent: Int?, expandable: Bool, expanded: Bool, selected: Bool) {
        self.id = id
        self.depth = depth
        self.parent = parent
        self.expandable = expandable
        self.expanded = expanded
        self.selected = selected
    }
}

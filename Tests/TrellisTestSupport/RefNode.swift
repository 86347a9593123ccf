/// A node as a client sends it in nested form: `children == nil` is a leaf, `[]` is expandable.
public struct RefNode: Equatable, Sendable {
    public var id: Int
    public var children: [RefNode]?

    public init(id: Int, children: [RefNode]?) {
        self.id = id
        self.children = children
    }
}

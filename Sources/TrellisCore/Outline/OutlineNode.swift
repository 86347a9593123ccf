/// One node of the client's tree, addressed by its dense index 0..<n (the API layer maps ids to indices).
public struct OutlineNode: Sendable, Equatable {
    /// Index of the parent node, or -1 for a root.
    public var parent: Int32
    /// Nested form: the node's children member is an array, even an empty one. Flat form: always false.
    public var hasChildrenMember: Bool

    /// A node under the parent index, -1 for a root.
    public init(parent: Int32, hasChildrenMember: Bool) {
        self.parent = parent
        self.hasChildrenMember = hasChildrenMember
    }
}

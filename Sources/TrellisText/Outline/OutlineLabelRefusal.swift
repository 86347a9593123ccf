/// A label an outline's row heights cannot be laid out from: the node's, and why.
public struct OutlineLabelRefusal: Error, Sendable, Equatable {
    public var node: Int
    public var refusal: TextRefusal
}

/// The row at the top of the viewport and how far the viewport's top is below that row's top, in px
/// (negative: above it).
public struct ListAnchor: Sendable, Equatable {
    /// The row's index in the list.
    public var index: Int
    public var offset: Double

    public init(index: Int, offset: Double) {
        self.index = index
        self.offset = offset
    }
}

/// Where to scroll so that the anchor's row stays where it was on screen: its new top plus the same offset.
public struct ListAnchorPosition: Sendable, Equatable {
    public var index: Int
    public var scrollOffset: Double

    public init(index: Int, scrollOffset: Double) {
        self.index = index
        self.scrollOffset = scrollOffset
    }
}

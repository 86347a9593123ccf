/// The "+N more" chip: its own rectangle (inside its padding) and N, the number of hidden items.
public struct FlowOverflowIndicator: Sendable, Equatable {
    /// The chip's own rectangle.
    public var rect: Rect
    /// N, the number of hidden items.
    public var count: Int

    /// A chip as FlowLayout.compute places it.
    public init(rect: Rect, count: Int) {
        self.rect = rect
        self.count = count
    }
}

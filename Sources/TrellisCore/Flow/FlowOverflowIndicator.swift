/// The "+N more" chip: its own rectangle (inside its padding) and N, the number of hidden items.
public struct FlowOverflowIndicator: Sendable, Equatable {
    public var rect: Rect
    public var count: Int

    public init(rect: Rect, count: Int) {
        self.rect = rect
        self.count = count
    }
}

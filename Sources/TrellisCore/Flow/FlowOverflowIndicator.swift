/// The "+N more" chip: its own rectangle (inside its padding) and N, the number of hidden items.
public struct FlowOverflowIndicator: Sendable, Equatable {
    public var rect: FlowRect
    public var count: Int

    public init(rect: FlowRect, count: Int) {
        self.rect = rect
        self.count = count
    }
}

/// A laid-out row: top, height (tallest cell), used width (cells and gaps, the chip included), first item index and visible item count.
public struct FlowRow: Sendable, Equatable {
    public var y: Double
    public var height: Double
    public var width: Double
    public var start: Int
    public var count: Int

    public init(y: Double, height: Double, width: Double, start: Int, count: Int) {
        self.y = y
        self.height = height
        self.width = width
        self.start = start
        self.count = count
    }
}

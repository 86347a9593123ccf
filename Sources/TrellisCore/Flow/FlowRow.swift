/// A laid-out row: top, height (tallest cell), used width (cells and gaps, the chip included), first item index and visible item count.
public struct FlowRow: Sendable, Equatable {
    /// The row's top.
    public var y: Double
    /// The tallest cell.
    public var height: Double
    /// Cells and gaps used, the chip included.
    public var width: Double
    /// The first item's index.
    public var start: Int
    /// Visible items in the row.
    public var count: Int

    /// A row as FlowLayout.compute makes it.
    public init(y: Double, height: Double, width: Double, start: Int, count: Int) {
        self.y = y
        self.height = height
        self.width = width
        self.start = start
        self.count = count
    }
}

/// The layout: visible items in input order, rows, container size, hidden item count and the chip if shown.
public struct FlowOutput: Sendable, Equatable {
    /// The visible items in input order.
    public var items: [FlowPlacedItem]
    /// The laid-out rows, top to bottom.
    public var rows: [FlowRow]
    /// containerWidth and the total height.
    public var size: Size
    /// Items hidden by maxRows.
    public var hiddenCount: Int
    /// The "+N more" chip, when requested and items are hidden.
    public var overflowIndicator: FlowOverflowIndicator?

    /// A layout as FlowLayout.compute makes it.
    public init(
        items: [FlowPlacedItem],
        rows: [FlowRow],
        size: Size,
        hiddenCount: Int,
        overflowIndicator: FlowOverflowIndicator?
    ) {
        self.items = items
        self.rows = rows
        self.size = size
        self.hiddenCount = hiddenCount
        self.overflowIndicator = overflowIndicator
    }
}

extension FlowOutput {
    /// One mapping of every placed rectangle (items and the chip), as mirroring and snapping apply it; rows and size stay.
    func mappingRects(_ transform: (Rect) -> Rect) -> FlowOutput {
        var result = self
        for k in result.items.indices {
            result.items[k].rect = transform(result.items[k].rect)
        }
        if let indicator = result.overflowIndicator {
            result.overflowIndicator?.rect = transform(indicator.rect)
        }
        return result
    }
}

/// A validated flow layout request: every number finite and ≥ 0, maxRows ≥ 1, pixelScale > 0.
public struct FlowInput: Sendable, Equatable {
    /// The width rows wrap at.
    public var containerWidth: Double
    /// The chips in order.
    public var items: [FlowItem]
    /// Padding left and right of each item (the seed's spacing).
    public var horizontalSpacing: Double
    /// Padding above and below each item.
    public var verticalSpacing: Double
    /// CSS column-gap between cells, with no outer inset.
    public var columnGap: Double
    /// CSS row-gap between rows.
    public var rowGap: Double
    /// CSS justify-content for every row.
    public var alignment: FlowAlignment
    /// CSS align-items within a row.
    public var rowAlignment: FlowRowAlignment
    /// rtl is the mirror image of the ltr layout.
    public var direction: FlowDirection
    /// Only the first maxRows rows are laid out; the rest are hidden.
    public var maxRows: Int?
    /// Size of the "+N more" chip; used only with maxRows.
    public var overflowIndicator: Size?
    /// Greedy (CSS flex-wrap) or balanced (same row count, narrowest widest row).
    public var lineBreaking: FlowLineBreaking
    /// Snaps every output edge to the device-pixel grid of this scale; nil keeps exact numbers.
    public var pixelScale: Double?

    /// Defaults are the service's: no spacing or gaps, leading, top, ltr, no row limit, greedy, exact numbers.
    public init(
        containerWidth: Double,
        items: [FlowItem],
        horizontalSpacing: Double = 0,
        verticalSpacing: Double = 0,
        columnGap: Double = 0,
        rowGap: Double = 0,
        alignment: FlowAlignment = .leading,
        rowAlignment: FlowRowAlignment = .top,
        direction: FlowDirection = .ltr,
        maxRows: Int? = nil,
        overflowIndicator: Size? = nil,
        lineBreaking: FlowLineBreaking = .greedy,
        pixelScale: Double? = nil
    ) {
        self.containerWidth = containerWidth
        self.items = items
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
        self.columnGap = columnGap
        self.rowGap = rowGap
        self.alignment = alignment
        self.rowAlignment = rowAlignment
        self.direction = direction
        self.maxRows = maxRows
        self.overflowIndicator = overflowIndicator
        self.lineBreaking = lineBreaking
        self.pixelScale = pixelScale
    }
}

/// A validated flow layout request: every number finite and ≥ 0, maxRows ≥ 1, pixelScale > 0.
public struct FlowRequest: Sendable, Equatable {
    public var containerWidth: Double
    public var items: [FlowItem]
    public var horizontalSpacing: Double
    public var verticalSpacing: Double
    public var columnGap: Double
    public var rowGap: Double
    public var alignment: FlowAlignment
    public var rowAlignment: FlowRowAlignment
    public var direction: FlowDirection
    public var maxRows: Int?
    /// Size of the "+N more" chip; used only with maxRows.
    public var overflowIndicator: Size?
    public var lineBreaking: FlowLineBreaking
    public var pixelScale: Double?

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

import TrellisCore

/// A flow whose items (and chip) may be given as text: the flow's settings as `FlowInput` has them, its items given
/// as sizes or as texts, and the font and padding the texts are measured with. Valid as `FlowInput` is (every
/// number finite and ≥ 0, maxRows ≥ 1, pixelScale > 0), each text checked for its length by the caller.
public struct FlowLabelsInput: Sendable {
    /// The width rows wrap at.
    public var containerWidth: Double
    /// The items in order, as sizes or as texts.
    public var items: [FlowLabelItem]
    /// Padding left and right of each item (the seed's spacing).
    public var horizontalSpacing: Double
    /// Padding above and below each item.
    public var verticalSpacing: Double
    /// CSS column-gap between cells.
    public var columnGap: Double
    /// CSS row-gap between rows.
    public var rowGap: Double
    public var alignment: FlowAlignment
    public var rowAlignment: FlowRowAlignment
    public var direction: FlowDirection
    /// Only the first maxRows rows are laid out; the rest are hidden.
    public var maxRows: Int?
    /// The "+N" chip, as a size or a label; used only with maxRows.
    public var overflowIndicator: FlowLabelChip?
    public var lineBreaking: FlowLineBreaking
    public var pixelScale: Double?
    /// The font every text is measured in.
    public var font: TextFont
    /// The space around each label's text inside its item.
    public var padding: FlowLabelPadding
    /// How every label is laid out (white space, alignment, tab size).
    public var labelStyle: FlowLabelStyle

    /// Defaults are the service's, as `FlowInput`'s.
    public init(
        containerWidth: Double,
        items: [FlowLabelItem],
        font: TextFont,
        padding: FlowLabelPadding = FlowLabelPadding(),
        horizontalSpacing: Double = 0,
        verticalSpacing: Double = 0,
        columnGap: Double = 0,
        rowGap: Double = 0,
        alignment: FlowAlignment = .leading,
        rowAlignment: FlowRowAlignment = .top,
        direction: FlowDirection = .ltr,
        maxRows: Int? = nil,
        overflowIndicator: FlowLabelChip? = nil,
        lineBreaking: FlowLineBreaking = .greedy,
        pixelScale: Double? = nil,
        labelStyle: FlowLabelStyle = FlowLabelStyle()
    ) {
        self.containerWidth = containerWidth
        self.items = items
        self.font = font
        self.padding = padding
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
        self.labelStyle = labelStyle
    }

    /// The core's input once every item has its size: these items, and the chip's size when it is given as one.
    func layout(_ items: [FlowItem]) -> FlowInput {
        var chip: Size?
        if case .size(let size) = overflowIndicator { chip = size }
        return FlowInput(
            containerWidth: containerWidth, items: items, horizontalSpacing: horizontalSpacing, verticalSpacing: verticalSpacing,
            columnGap: columnGap, rowGap: rowGap, alignment: alignment, rowAlignment: rowAlignment, direction: direction,
            maxRows: maxRows, overflowIndicator: chip, lineBreaking: lineBreaking, pixelScale: pixelScale)
    }
}

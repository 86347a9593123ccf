import TrellisCore

/// An outline picker's rows with their labels laid out: the rows as `OutlineRows` makes them (its window applied to
/// the answer), the labels' font and paragraph style, the row's width, how far each level is indented, each row's
/// chrome, the gap between rows, and where the picker is scrolled (to bring the selected row into view).
public struct OutlineRowsLayoutInput: Sendable {
    public var rows: OutlineRowsInput
    public var font: TextFont
    public var style: ParagraphStyle
    /// The row's width in px (> 0); a row's label is laid out at it less its depth × `indent` and its padding.
    public var width: Double
    public var indent: Double
    public var chrome: ListRowChrome
    /// px between rows.
    public var gap: Double
    /// The viewport's height and where it is scrolled now (overscan unused).
    public var scroll: ListScroll?

    public init(
        rows: OutlineRowsInput, font: TextFont, style: ParagraphStyle, width: Double, indent: Double = 0,
        chrome: ListRowChrome = .none, gap: Double = 0, scroll: ListScroll? = nil
    ) {
        self.rows = rows
        self.font = font
        self.style = style
        self.width = width
        self.indent = indent
        self.chrome = chrome
        self.gap = gap
        self.scroll = scroll
    }
}

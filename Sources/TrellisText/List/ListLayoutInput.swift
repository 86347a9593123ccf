import TrellisCore

/// A list of rows of paragraphs in one font, to lay out at each width: the rows' paragraphs in order, the
/// distinct paragraph styles and row chromes they use, the gaps, and optionally where the list is scrolled
/// and which row to keep in place.
public struct ListLayoutInput: Sendable {
    public var font: TextFont
    public var styles: [ParagraphStyle]
    /// Every row's paragraphs, in order, and which of `styles` lays each out (kept apart).
    public var paragraphs: ListTexts
    public var paragraphStyles: [Int32]
    public var chromes: [ListRowChrome]
    public var rows: [ListLayoutRow]
    /// px between a row's paragraphs.
    public var paragraphGap: Double
    /// px between rows.
    public var gap: Double
    public var widths: [Double]
    public var scroll: ListScroll?
    /// The row to keep in place (a row index).
    public var anchor: ListAnchor?
    /// The paragraphs' shaping, kept from an earlier layout of the same list (`ListLayoutOutput.shaping`): laid out from
    /// it, no paragraph is shaped or looked up in the shaping cache.
    public var shaping: ListShaping?

    /// Valid by construction: every style and chrome index in range, paragraph ends ascending up to the
    /// paragraphs' count, widths ≥ 0 and finite, the anchor a row, the shaping one per paragraph (the API's reader
    /// checks them).
    public init(
        font: TextFont, styles: [ParagraphStyle], paragraphs: ListTexts, paragraphStyles: [Int32], chromes: [ListRowChrome], rows: [ListLayoutRow],
        paragraphGap: Double, gap: Double, widths: [Double], scroll: ListScroll? = nil, anchor: ListAnchor? = nil
    ) {
        self.font = font
        self.styles = styles
        precondition(paragraphStyles.count == paragraphs.count, "a style per paragraph")
        self.paragraphs = paragraphs
        self.paragraphStyles = paragraphStyles
        self.chromes = chromes
        self.rows = rows
        self.paragraphGap = paragraphGap
        self.gap = gap
        self.widths = widths
        self.scroll = scroll
        self.anchor = anchor
    }

    /// The same, with the paragraphs as Strings.
    public init(
        font: TextFont, styles: [ParagraphStyle], paragraphs: [String], paragraphStyles: [Int32], chromes: [ListRowChrome], rows: [ListLayoutRow],
        paragraphGap: Double, gap: Double, widths: [Double], scroll: ListScroll? = nil, anchor: ListAnchor? = nil
    ) {
        self.init(
            font: font, styles: styles, paragraphs: ListTexts(paragraphs), paragraphStyles: paragraphStyles, chromes: chromes, rows: rows,
            paragraphGap: paragraphGap, gap: gap, widths: widths, scroll: scroll, anchor: anchor)
    }
}

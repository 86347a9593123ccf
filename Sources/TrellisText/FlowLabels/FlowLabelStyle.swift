/// Rule for the flow's `whiteSpace`, `textAlign` and `tabSize`: how every label is laid out. Letter and word spacing are
/// the font's (`TextFont.spacing`), so they need nothing here.
public struct FlowLabelStyle: Sendable, Equatable {
    /// CSS white-space of every label, the chip's included: each is then a paragraph in that mode (line feeds kept as
    /// forced breaks where it keeps them, collapsed where not; tabs and carriage returns as a paragraph's). nil: each
    /// label is one text measured as `white-space: pre` (narrowed to more than one line: `pre-wrap`), and a control
    /// character in it is refused.
    public var whiteSpace: WhiteSpace?
    /// CSS text-align of each label's lines in its content box (a label of one line that is not narrowed fills it).
    public var textAlign: TextAlign
    /// CSS tab-size of tabs kept by `whiteSpace`.
    public var tabSize: TabSize

    public init(whiteSpace: WhiteSpace? = nil, textAlign: TextAlign = .start, tabSize: TabSize = .initial) {
        self.whiteSpace = whiteSpace
        self.textAlign = textAlign
        self.tabSize = tabSize
    }
}

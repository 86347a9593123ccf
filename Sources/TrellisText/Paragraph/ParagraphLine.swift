/// One line of a laid-out paragraph. Offsets are UTF-16 code units of the text as sent; lines tile
/// the text (a line's end is the next line's start), spaces collapsed or hanging at a line's end
/// belong to it.
public struct ParagraphLine: Equatable, Sendable {
    public var start: Int
    public var end: Int
    /// What is drawn, in px: the text without its hanging spaces (with an ellipsis: up to its end).
    public var width: Double
    public var top: Double
    public var height: Double
    /// The baseline, from the paragraph's top.
    public var baseline: Double
    /// The line ends in a forced break (a kept line feed, the line's last character).
    public var forcedBreak: Bool = false
    /// Where what is drawn starts, in px from the box's start edge (its right edge in a right-to-left paragraph):
    /// the first line's indent and the line's alignment.
    public var x: Double = 0
    /// With `justify`: the px added at each expansion opportunity (after each space; before and after each CJK
    /// ideograph or symbol, once between two of them), 0 when the line is not justified.
    public var expansion: Double = 0
    /// The hyphen drawn at the line's end when it breaks at a soft hyphen (its width counted in `width`); nil when none.
    public var hyphen: String?
}

/// Where the ellipsis is drawn: after the visible text of `line` (which ends at UTF-16 offset `end`),
/// `x` px from the line's start edge (its right edge in a right-to-left paragraph).
public struct ParagraphEllipsis: Equatable, Sendable {
    public var line: Int
    public var end: Int
    public var x: Double
    public var width: Double
    /// What is drawn: U+2026, or three full stops when the first face has no U+2026 (as Blink does).
    public var text: String
}

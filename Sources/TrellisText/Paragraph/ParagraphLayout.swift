/// A paragraph laid out at one width.
public struct ParagraphLayout: Equatable, Sendable {
    /// The lines shown (at most `maxLines`).
    public var lines: [ParagraphLine]
    public var height: Double
    /// The widest line drawn.
    public var width: Double
    /// Lines before clamping.
    public var lineCount: Int
    /// Lines were hidden by `maxLines` or text was cut for an ellipsis.
    public var truncated: Bool
    public var ellipsis: ParagraphEllipsis?
}

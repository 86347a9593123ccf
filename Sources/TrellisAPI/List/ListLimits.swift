import TrellisJSON

/// The documented limits of `POST /v1/list/layout` (openapi.yaml and the README quote them); 422 past them.
/// Paragraph texts, the font and the widths have the paragraph endpoint's limits.
enum ListLimits {
    /// Rule for `rows`: at most this many rows.
    static let maxRows = 100_000
    /// Rule for `texts`: at most this many paragraphs in all the rows together.
    static let maxParagraphs = 100_000
    /// Rule for `padding`, `extraHeight`, `minHeight`, `gap`, `paragraphGap` and `viewportHeight`: 0 to 1,000,000 px.
    static let lengths = NumberRange.closed(0, 1_000_000)
    /// Rule for `overscan`: rows beyond the viewport on each side, 0 to 100,000.
    static let maxOverscan = 100_000
}

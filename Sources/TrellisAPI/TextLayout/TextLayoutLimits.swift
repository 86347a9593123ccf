import TrellisJSON

/// The documented limits of `POST /v1/text/layout` (openapi.yaml and docs/limits.md quote them); 422 past
/// them. Texts, their length, the font and its size have the measure endpoint's limits.
enum TextLayoutLimits {
    /// Rule for `width`: greater than 0, less than 1e7 px.
    static let widths = NumberRange.exclusive(0, 10_000_000)
    /// Rule for `widths`: at most this many widths per request.
    static let maxWidths = 16
    /// Rule for `lineHeight`: greater than 0, less than 10,000 px (a length, and what a number or percentage comes to).
    static let lineHeights = NumberRange.exclusive(0, 10_000)
    /// Rule for `lineHeight` as a number (times the font size) and as a percentage (of it).
    static let lineHeightFactors = NumberRange.exclusive(0, 10_000)
    static let lineHeightPercentages = NumberRange.exclusive(0, 1_000_000)
    /// Rule for `maxLines`: an integer literal ≥ 1.
    static let maxLinesLimit = Int(Int32.max)
    /// Rule for `textIndent`: a length within (-1e7, 1e7) px, or a percentage of the width within [-1000, 1000] %.
    static let textIndents = NumberRange.exclusive(-10_000_000, 10_000_000)
    static let textIndentPercentages = NumberRange.closed(-1000, 1000)
    /// Rule for `tabSize`: a number of spaces within [0, 1000], or a length within [0, 100000] px.
    static let tabSpaces = NumberRange.closed(0, 1000)
    static let tabLengths = NumberRange.closed(0, 100_000)
}

import TrellisJSON

/// The documented limits of `POST /v1/flow/layout` (openapi.yaml and docs/limits.md quote them); 422 past them.
enum FlowLimits {
    /// Rule: more items than this is a 422.
    static let maxItems = 1_000_000
    /// Rule: lengths up to 1e9 keep every sum over maxItems finite.
    static let lengths = NumberRange.closed(0, 1_000_000_000)
    /// Rule: scaled edges stay finite.
    static let pixelScales = NumberRange.exclusive(0, 1000)
    /// Rule for `maxRows`: an integer literal ≥ 1.
    static let maxRowsLimit = Int(Int32.max)
    /// Rule for `maxWidth`: a text item's maxLines, an integer literal ≥ 1.
    static let maxLinesLimit = Int(Int32.max)
}

import TrellisCore

/// The picker's rows in the window with each one's height and top, the height of every visible row together, and
/// the scroll offset that brings the selected row into view (when a viewport was given and the selection is a row).
public struct OutlineRowsLayoutOutput: Sendable {
    public var rows: OutlineRowsOutput
    /// Per row of `rows.rows`.
    public var heights: [Double]
    public var offsets: [Double]
    public var totalHeight: Double
    public var selectedScrollOffset: Double?
}

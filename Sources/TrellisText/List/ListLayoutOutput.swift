import TrellisCore

/// A list laid out at one width: each row's top, the list's height, the rows to render and the anchor's scroll
/// offset (when asked for), and per row its height, its lines (summed over its paragraphs, before any clamp) and
/// whether any of its paragraphs is truncated. Lines and truncation are read from the rows' text as it was laid
/// out, not kept per width.
public struct ListLayoutOutput: Sendable {
    public let width: Double
    public let heights: [Double]
    public let offsets: [Double]
    public let total: Double
    public let window: ListWindow?
    public let anchor: ListAnchorPosition?
    let text: ListRowsText
    let widthIndex: Int

    public var count: Int { offsets.count }
    public func height(ofRow row: Int) -> Double { heights[row] }
    public func lineCount(ofRow row: Int) -> Int { Int(text.lines(row, widthIndex) & ~ListRowsText.truncatedBit) }
    public func isTruncated(row: Int) -> Bool { text.lines(row, widthIndex) & ListRowsText.truncatedBit != 0 }
    /// The paragraphs' shaping, when the list was laid out keeping it (`ListLayout.compute`'s `keeping`).
    public var shaping: ListShaping? { text.shaped.map(ListShaping.init) }
}

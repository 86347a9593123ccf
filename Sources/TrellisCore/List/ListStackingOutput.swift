/// A list's rows stacked: each row's height and top, the list's height, the rows to render and where to
/// scroll to keep the anchor in place (each when asked for).
public struct ListStackingOutput: Sendable, Equatable {
    public var heights: [Double]
    /// Each row's top: the heights and gaps before it.
    public var offsets: [Double]
    public var total: Double
    public var window: ListWindow?
    public var anchor: ListAnchorPosition?

    public init(heights: [Double], offsets: [Double], total: Double, window: ListWindow?, anchor: ListAnchorPosition?) {
        self.heights = heights
        self.offsets = offsets
        self.total = total
        self.window = window
        self.anchor = anchor
    }
}

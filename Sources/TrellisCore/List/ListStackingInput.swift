/// Rows to stack: each row's height (its chrome included, from `ListStacking.rowHeight`), the gap between
/// rows, and optionally where the list is scrolled and which row to keep in place.
public struct ListStackingInput: Sendable {
    public var heights: [Double]
    /// px between rows (none after the last), at least 0.
    public var gap: Double
    public var scroll: ListScroll?
    /// The row to keep in place (its index within `heights`).
    public var anchor: ListAnchor?

    public init(heights: [Double], gap: Double = 0, scroll: ListScroll? = nil, anchor: ListAnchor? = nil) {
        precondition(anchor.map { heights.indices.contains($0.index) } ?? true, "an anchor names a row")
        self.heights = heights
        self.gap = gap
        self.scroll = scroll
        self.anchor = anchor
    }
}

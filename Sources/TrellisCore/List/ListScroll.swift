/// Where a list is scrolled: the scroll offset of the viewport's top, its height, and how many rows to render
/// beyond what it shows on each side.
public struct ListScroll: Sendable, Equatable {
    public var offset: Double
    public var viewportHeight: Double
    public var overscan: Int

    /// `viewportHeight` ≥ 0 and `overscan` ≥ 0 (the API's reader checks them); `offset` any finite number.
    public init(offset: Double, viewportHeight: Double, overscan: Int = 0) {
        precondition(viewportHeight >= 0 && overscan >= 0, "checked by the API's reader")
        self.offset = offset
        self.viewportHeight = viewportHeight
        self.overscan = overscan
    }
}

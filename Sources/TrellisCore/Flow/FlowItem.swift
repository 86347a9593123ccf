/// One item to place: its own size (without padding) and whether it forces a new row.
public struct FlowItem: Sendable, Equatable {
    /// The item's own width, without padding.
    public var width: Double
    /// The item's own height, without padding.
    public var height: Double
    /// Rule for `breakBefore`: the item starts a new row (a forced line break).
    public var breakBefore: Bool

    /// One chip of the given size.
    public init(width: Double, height: Double, breakBefore: Bool = false) {
        self.width = width
        self.height = height
        self.breakBefore = breakBefore
    }
}

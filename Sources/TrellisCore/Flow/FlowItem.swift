/// One item to place: its own size (without padding) and whether it forces a new row.
public struct FlowItem: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// Rule "breakBefore": the item starts a new row (a forced line break).
    public var breakBefore: Bool

    public init(width: Double, height: Double, breakBefore: Bool = false) {
        self.width = width
        self.height = height
        self.breakBefore = breakBefore
    }
}

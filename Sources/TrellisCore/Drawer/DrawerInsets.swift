/// Safe-area insets; leading and trailing follow the layout direction.
public struct DrawerInsets: Sendable, Equatable, Hashable {
    /// Points from the top edge.
    public var top: Double
    /// Points from the leading edge.
    public var leading: Double
    /// Points from the bottom edge.
    public var bottom: Double
    /// Points from the trailing edge.
    public var trailing: Double

    /// No insets.
    public static let zero = DrawerInsets()

    /// Sides not given are 0.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
}

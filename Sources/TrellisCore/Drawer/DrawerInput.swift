/// A validated drawer request, as the API layer hands it to the core.
public struct DrawerInput: Sendable, Equatable, Hashable {
    /// Rule: frameRate defaults to 60 frames per second.
    public static let defaultFrameRate = 60.0

    public var state: DrawerState
    public var action: DrawerAction?
    public var layout: DrawerLayout
    public var spring: DrawerSpring
    public var frameRate: Double
    public var start: DrawerMotionStart?

    public init(
        state: DrawerState = DrawerState(),
        action: DrawerAction? = nil,
        layout: DrawerLayout,
        spring: DrawerSpring = .default,
        frameRate: Double = DrawerInput.defaultFrameRate,
        start: DrawerMotionStart? = nil
    ) {
        self.state = state
        self.action = action
        self.layout = layout
        self.spring = spring
        self.frameRate = frameRate
        self.start = start
    }
}

/// A validated drawer request, as the API layer hands it to the core.
public struct DrawerInput: Sendable, Equatable, Hashable {
    /// Rule: frameRate defaults to 60 frames per second.
    public static let defaultFrameRate = 60.0

    /// The state now.
    public var state: DrawerState
    /// The action to apply; nil renders the current state.
    public var action: DrawerAction?
    /// The container, panel and mask inputs the frames come from.
    public var layout: DrawerLayout
    /// The spring of the transition (default: response 0.55 s, dampingFraction 0.825).
    public var spring: DrawerSpring
    /// Keyframes per second.
    public var frameRate: Double
    /// Where the panel is when the action lands mid-flight; used only when the action changes the state.
    public var start: DrawerMotionStart?

    /// Every member but the layout has the service's default.
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

/// The outcome of one drawer step: the next state, its frames, and the transition when the state changed.
public struct DrawerOutput: Sendable, Equatable, Hashable {
    /// The state after the action.
    public var state: DrawerState
    /// True when the action changed the state.
    public var changed: Bool
    /// The frames of the state after the action.
    public var geometry: DrawerGeometry
    /// Present only when the state changed.
    public var transition: DrawerTransition?

    /// A result as DrawerResolver makes it.
    public init(state: DrawerState, changed: Bool, geometry: DrawerGeometry, transition: DrawerTransition?) {
        self.state = state
        self.changed = changed
        self.geometry = geometry
        self.transition = transition
    }
}

/// The outcome of one drawer step: the next state, its frames, and the transition when the state changed.
public struct DrawerResult: Sendable, Equatable, Hashable {
    public var state: DrawerState
    public var changed: Bool
    public var geometry: DrawerGeometry
    public var transition: DrawerTransition?

    public init(state: DrawerState, changed: Bool, geometry: DrawerGeometry, transition: DrawerTransition?) {
        self.state = state
        self.changed = changed
        self.geometry = geometry
        self.transition = transition
    }
}

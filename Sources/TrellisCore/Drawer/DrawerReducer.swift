/// The drawer's state machine: the next state from the current one and an action.
public enum DrawerReducer: Sendable, Equatable {
    /// The state after `action`: toggle flips, open and close set, tapMask closes.
    public static func reduce(_ state: DrawerState, _ action: DrawerAction) -> DrawerState {
        switch action {
        case .toggle:
            return DrawerState(isPresented: !state.isPresented)
        case .open:
            return DrawerState(isPresented: true)
        case .close:
            return DrawerState(isPresented: false)
        // Rule: tapMask closes; with the drawer closed there is no mask, so nothing changes.
        case .tapMask:
            return DrawerState(isPresented: false)
        }
    }
}

/// The actions that can change the presentation state.
public enum DrawerAction: Sendable, Equatable, Hashable, CaseIterable {
    case toggle
    case open
    case close
    case tapMask
}

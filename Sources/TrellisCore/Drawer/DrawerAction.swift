/// Issue 6 "Request": the events that can change the presentation state.
public enum DrawerAction: String, Sendable, Equatable, Hashable, CaseIterable {
    case toggle
    case open
    case close
    case tapMask
}

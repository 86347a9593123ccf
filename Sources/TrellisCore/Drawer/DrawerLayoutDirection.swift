/// Issue 6 "Request › layoutDirection": in `rtl` the leading edge is the right side.
public enum DrawerLayoutDirection: String, Sendable, Equatable, Hashable, CaseIterable {
    case ltr
    case rtl
}

/// The layout direction: in `rtl` the leading edge is the right side.
public enum DrawerLayoutDirection: Sendable, Equatable, Hashable, CaseIterable {
    case ltr
    case rtl
}

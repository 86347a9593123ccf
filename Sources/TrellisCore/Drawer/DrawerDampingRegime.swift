/// The spring's damping regime: dampingFraction < 1, = 1 or > 1.
public enum DrawerDampingRegime: Sendable, Equatable, Hashable, CaseIterable {
    case underdamped
    case criticallyDamped
    case overdamped
}

/// Why a drawer step that changes the state has no transition the limits allow.
public enum DrawerRefusal: Error, Equatable, Sendable {
    /// The container is so much wider than the panel that the panel's travel vanishes in floating point.
    case travelNotRepresentable
    /// The transition's motion breaks a limit. `blameStart`: the same spring from rest is within
    /// the limits, so the start position and velocity are to blame; else the spring is.
    case motion(DrawerLimitViolation, blameStart: Bool)
}

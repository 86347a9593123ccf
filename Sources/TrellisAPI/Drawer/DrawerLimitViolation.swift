/// Limits: why DrawerMotionLimits refuses a transition.
enum DrawerLimitViolation: Error, Equatable {
    /// The spring's stiffness or damping, or the start's progress or velocity, overflows.
    case nonFinite
    /// It would not settle within DrawerMotionLimits.maxSettlingDuration.
    case settlesTooLate
    /// Its CSS easing would need more than DrawerMotionLimits.maxEasingSamples samples.
    case tooManySamples
}

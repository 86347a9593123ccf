/// Why DrawerLimits refuses a transition's motion.
public enum DrawerLimitViolation: Error, Equatable, Sendable {
    /// The spring's stiffness or damping, or the start's progress or velocity, overflows.
    case nonFinite
    /// It would not settle within DrawerLimits.maxSettlingDuration.
    case settlesTooLate
    /// Its CSS easing would need more than DrawerLimits.maxEasingSamples samples.
    case tooManySamples
    /// Rule: its keyframes and easing samples together (`needed`) pass what a request may ask for
    /// (`allowed`, DrawerLimits.maxWork).
    case tooMuchWork(needed: Int, allowed: Int)
}

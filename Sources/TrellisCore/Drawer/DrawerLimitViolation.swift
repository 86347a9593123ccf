/// Why DrawerLimits refuses a transition's motion.
public enum DrawerLimitViolation: Error, Equatable, Sendable {
    /// The spring's stiffness or damping, or the start's progress or velocity, overflows.
    case nonFinite
    /// It would not settle within DrawerLimits.maxSettlingDuration.
    case settlesTooLate
    /// Rule: its keyframes at the frame rate (`needed`) alone pass the keyframes and easing samples a request may ask
    /// for (`allowed`, DrawerLimits.maxWork); found before any is made.
    case tooManyKeyframes(needed: Int, allowed: Int)
    /// Rule: its CSS easing would need more samples than its keyframes leave of what a request may ask for
    /// (`allowed`), or a step finer than the easing's time grid.
    case tooManySamples(allowed: Int)
}

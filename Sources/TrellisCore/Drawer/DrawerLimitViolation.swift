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

    /// Rule: the keyframes and easing samples made before the limit was found broken: the samples its keyframes left,
    /// when the easing ran out of them (at most); none otherwise, since the settling time and the keyframes' count are
    /// checked before any is made.
    public var work: Int {
        if case .tooManySamples(let allowed) = self { return allowed }
        return 0
    }
}

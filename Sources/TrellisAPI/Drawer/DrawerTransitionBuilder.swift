import TrellisJSON
import TrellisCore

/// `transition`: the motion's timing within DrawerMotionLimits, its easing fitted over the CSS duration.
enum DrawerTransitionBuilder {
    /// Geometry: the panel's travel must survive floating point (a container far wider than the panel absorbs it).
    static func travelIsRepresentable(_ input: DrawerInput, _ problems: inout Problems) -> Bool {
        guard input.layout.panelX(isPresented: true) != input.layout.panelX(isPresented: false) else {
            problems.add(pointer: "/container/width", "is too large next to the panel's width for its travel to be represented")
            return false
        }
        return true
    }

    /// Nil after recording a problem when the motion cannot be represented or breaks a limit.
    static func timing(for motion: DrawerSpringMotion, input: DrawerInput, _ problems: inout Problems) -> DrawerResolver.Timing? {
        switch DrawerMotionLimits.settlingDuration(of: motion) {
        case .success(let settling):
            return DrawerResolver.Timing(
                settlingDuration: settling, easingDuration: DrawerCSSEasing.milliseconds(settling: settling) / 1000)
        case .failure(let violation):
            record(violation, motion: motion, input: input, &problems)
            return nil
        }
    }

    /// Limits: blamed on `from` when the same spring from rest is within them, else on `spring`.
    private static func record(_ violation: DrawerLimitViolation, motion: DrawerSpringMotion, input: DrawerInput, _ problems: inout Problems) {
        let atRest = DrawerSpringMotion(spring: motion.spring)
        let blameStart: Bool
        if input.start != nil, case .success = DrawerMotionLimits.settlingDuration(of: atRest) {
            blameStart = true
        } else {
            blameStart = false
        }
        let subject = blameStart ? "with this start position and velocity the transition" : "with this spring the transition"
        let limit = Int(DrawerMotionLimits.maxSettlingDuration)
        let detail: String
        switch violation {
        case .nonFinite:
            detail = blameStart
                ? "is too far from the panel's travel, or too fast, for the spring's progress to be represented"
                : "gives a stiffness or damping too large to represent; use a longer response or duration"
        case .settlesTooLate:
            detail = "\(subject) would not settle (|1 − p| < 0.001) within \(limit) s"
        case .tooManySamples:
            detail = "\(subject) changes too fast for a CSS easing within 0.002 of it: that would need more than \(DrawerMotionLimits.maxEasingSamples) samples"
        }
        problems.add(pointer: blameStart ? "/from" : "/spring", detail)
    }
}

import TrellisCore

/// Issue 6 "transition": the core's transition for a state change, within DrawerMotionLimits, its easing fitted over the CSS duration.
enum DrawerTransitionBuilder {
    /// Nil after recording a problem when the transition cannot be represented or breaks a limit.
    static func build(from old: DrawerState, to new: DrawerState, input: DrawerInput, _ problems: inout Problems) -> DrawerTransition? {
        let layout = input.layout
        let fromX = layout.panelX(isPresented: old.isPresented)
        let toX = layout.panelX(isPresented: new.isPresented)
        // Geometry: the panel's travel must survive floating point (a container far wider than the panel absorbs it).
        guard fromX != toX else {
            problems.add(pointer: "/container/width", "is too large next to the panel's width for its travel to be represented")
            return nil
        }
        let motion = DrawerSpringMotion(spring: input.spring, fromX: fromX, toX: toX, start: input.start)
        let duration: Double
        switch DrawerMotionLimits.settlingDuration(of: motion) {
        case .success(let settling):
            duration = settling
        case .failure(let violation):
            record(violation, motion: motion, input: input, &problems)
            return nil
        }
        let cssDuration = DrawerCSSEasing.milliseconds(settling: duration) / 1000
        return DrawerTransition(
            panelFromX: fromX,
            panelToX: toX,
            maskFromOpacity: layout.maskOpacity(isPresented: old.isPresented),
            maskToOpacity: layout.maskOpacity(isPresented: new.isPresented),
            motion: motion,
            settlingDuration: duration,
            keyframes: motion.keyframes(frameRate: input.frameRate, settlingDuration: duration),
            easingStops: DrawerLinearEasing.stops(for: motion, duration: cssDuration, maxError: DrawerLinearEasing.defaultMaxError)
        )
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

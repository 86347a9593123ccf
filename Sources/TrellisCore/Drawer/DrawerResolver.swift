/// One drawer step: reduce the state by the action, lay out the final state, and describe the transition if the state changed.
public enum DrawerResolver: Sendable, Equatable {
    /// How long a transition's motion runs: its settling time and the span its CSS easing is fitted over.
    public struct Timing: Sendable, Equatable {
        public var settlingDuration: Double
        public var easingDuration: Double

        public init(settlingDuration: Double, easingDuration: Double) {
            self.settlingDuration = settlingDuration
            self.easingDuration = easingDuration
        }
    }

    /// The result, or nil when `timing` refuses the transition's motion (a caller's limits).
    public static func resolve(_ input: DrawerInput, timing: (DrawerSpringMotion) -> Timing?) -> DrawerResult? {
        let old = input.state
        let new = input.action.map { DrawerReducer.reduce(old, $0) } ?? old
        var transition: DrawerTransition?
        if new != old {
            guard let made = self.transition(from: old, to: new, input: input, timing: timing) else { return nil }
            transition = made
        }
        return DrawerResult(
            state: new, changed: new != old, geometry: input.layout.geometry(isPresented: new.isPresented),
            transition: transition)
    }

    /// Rule: `start` is used only when the state changes; otherwise the panel is at rest and there is no transition.
    private static func transition(
        from old: DrawerState, to new: DrawerState, input: DrawerInput, timing: (DrawerSpringMotion) -> Timing?
    ) -> DrawerTransition? {
        let layout = input.layout
        let fromX = layout.panelX(isPresented: old.isPresented)
        let toX = layout.panelX(isPresented: new.isPresented)
        let motion = DrawerSpringMotion(spring: input.spring, fromX: fromX, toX: toX, start: input.start)
        guard let times = timing(motion) else { return nil }
        return DrawerTransition(
            panelFromX: fromX,
            panelToX: toX,
            maskFromOpacity: layout.maskOpacity(isPresented: old.isPresented),
            maskToOpacity: layout.maskOpacity(isPresented: new.isPresented),
            motion: motion,
            settlingDuration: times.settlingDuration,
            keyframes: motion.keyframes(frameRate: input.frameRate, settlingDuration: times.settlingDuration),
            easingStops: DrawerLinearEasing.stops(for: motion, duration: times.easingDuration, maxError: DrawerLinearEasing.defaultMaxError)
        )
    }
}

/// Issue 6 "POST /v1/drawer/state": reduce, lay out the final state, and describe the transition if any.
public enum DrawerResolver: Sendable, Equatable {
    public static func resolve(_ input: DrawerInput) -> DrawerResult {
        let old = input.state
        let new = input.action.map { DrawerReducer.reduce(old, $0) } ?? old
        let changed = new != old
        let layout = input.layout
        return DrawerResult(
            state: new,
            changed: changed,
            geometry: layout.geometry(isPresented: new.isPresented),
            transition: changed ? transition(from: old, to: new, input: input) : nil
        )
    }

    /// Issue 6 "from": `start` is used only when the state changes; otherwise the panel is at rest and there is no transition.
    public static func transition(from old: DrawerState, to new: DrawerState, input: DrawerInput) -> DrawerTransition {
        let layout = input.layout
        let fromX = layout.panelX(isPresented: old.isPresented)
        let toX = layout.panelX(isPresented: new.isPresented)
        let motion = DrawerSpringMotion(spring: input.spring, fromX: fromX, toX: toX, start: input.start)
        let duration = motion.settlingDuration()
        return DrawerTransition(
            panelFromX: fromX,
            panelToX: toX,
            maskFromOpacity: layout.maskOpacity(isPresented: old.isPresented),
            maskToOpacity: layout.maskOpacity(isPresented: new.isPresented),
            motion: motion,
            settlingDuration: duration,
            keyframes: motion.keyframes(frameRate: input.frameRate, settlingDuration: duration),
            easingStops: DrawerLinearEasing.stops(for: motion, duration: duration, maxError: DrawerLinearEasing.defaultMaxError)
        )
    }
}

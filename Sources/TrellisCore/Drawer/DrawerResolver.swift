/// One drawer step: reduce the state by the action, lay out the final state, and describe the
/// transition if the state changed, within DrawerLimits.
public enum DrawerResolver {
    /// Plans a transition's motion at a frame rate (DrawerMotionPlan.make, or a cache of its results).
    public typealias Planner = (DrawerSpringMotion, Double) -> Result<DrawerMotionPlan, DrawerLimitViolation>

    /// Applies the input's action, lays out the resulting state and, when the state changed, its spring transition; a refusal when the transition breaks DrawerLimits.
    public static func resolve(
        _ input: DrawerInput, planner: Planner = DrawerMotionPlan.make
    ) -> Result<DrawerResult, DrawerRefusal> {
        let old = input.state
        let new = input.action.map { DrawerReducer.reduce(old, $0) } ?? old
        var transition: DrawerTransition?
        if new != old {
            switch self.transition(from: old, to: new, input: input, planner: planner) {
            case .success(let made): transition = made
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(DrawerResult(
            state: new, changed: new != old, geometry: input.layout.geometry(isPresented: new.isPresented),
            transition: transition))
    }

    /// Rule: `start` is used only when the state changes; otherwise the panel is at rest and there is no transition.
    private static func transition(
        from old: DrawerState, to new: DrawerState, input: DrawerInput, planner: Planner
    ) -> Result<DrawerTransition, DrawerRefusal> {
        let layout = input.layout
        let fromX = layout.panelX(isPresented: old.isPresented)
        let toX = layout.panelX(isPresented: new.isPresented)
        // Rule: the panel's travel must survive floating point (a container far wider than the panel absorbs it).
        guard fromX != toX else { return .failure(.travelNotRepresentable) }
        let motion = DrawerSpringMotion(spring: input.spring, fromX: fromX, toX: toX, start: input.start)
        let plan: DrawerMotionPlan
        switch planner(motion, input.frameRate) {
        case .success(let made):
            plan = made
        case .failure(let violation):
            // Rule: blamed on the start when the same spring from rest is within the limits, else on the spring.
            let atRest = DrawerSpringMotion(spring: motion.spring)
            let blameStart: Bool
            if input.start != nil, case .success = DrawerLimits.settlingDuration(of: atRest) {
                blameStart = true
            } else {
                blameStart = false
            }
            return .failure(.motion(violation, blameStart: blameStart))
        }
        return .success(DrawerTransition(
            panelFromX: fromX,
            panelToX: toX,
            maskFromOpacity: layout.maskOpacity(isPresented: old.isPresented),
            maskToOpacity: layout.maskOpacity(isPresented: new.isPresented),
            motion: motion,
            settlingDuration: plan.settlingDuration,
            easingDuration: plan.easingDuration,
            keyframes: plan.keyframes,
            easingStops: plan.easingStops
        ))
    }
}

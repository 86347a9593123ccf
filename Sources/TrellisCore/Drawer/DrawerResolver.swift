/// One drawer step: reduce the state by the action, lay out the final state, and describe the
/// transition if the state changed, within DrawerLimits.
public enum DrawerResolver {
    /// Plans a transition's motion at a frame rate within a work limit (DrawerMotionPlan.make, or a cache of
    /// its results that gives the same answer).
    public typealias Planner = (DrawerSpringMotion, Double, Int) -> Result<DrawerMotionPlan, DrawerLimitViolation>

    /// Applies the input's action, lays out the resulting state and, when the state changed, its spring transition; a refusal when the transition breaks DrawerLimits.
    public static func compute(
        _ input: DrawerInput, planner: Planner = { DrawerMotionPlan.make($0, frameRate: $1, maxWork: $2) }
    ) -> Result<DrawerOutput, DrawerRefusal> {
        var meter = WorkMeter()
        return compute(input, meter: &meter, planner: planner)
    }

    /// As `compute`, with the transition's work limited (DrawerLimits.maxWork) and counted on the meter.
    public static func compute(
        _ input: DrawerInput, meter: inout WorkMeter, planner: Planner = { DrawerMotionPlan.make($0, frameRate: $1, maxWork: $2) }
    ) -> Result<DrawerOutput, DrawerRefusal> {
        let maxWork = DrawerLimits.maxWork
        let old = input.state
        let new = input.action.map { DrawerReducer.reduce(old, $0) } ?? old
        var transition: DrawerTransition?
        if new != old {
            switch self.transition(from: old, to: new, input: input, maxWork: maxWork, meter: &meter, planner: planner) {
            case .success(let made): transition = made
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(DrawerOutput(
            state: new, changed: new != old, geometry: input.layout.geometry(isPresented: new.isPresented),
            transition: transition))
    }

    /// Rule: `start` is used only when the state changes; otherwise the panel is at rest and there is no transition.
    private static func transition(
        from old: DrawerState, to new: DrawerState, input: DrawerInput, maxWork: Int, meter: inout WorkMeter, planner: Planner
    ) -> Result<DrawerTransition, DrawerRefusal> {
        let layout = input.layout
        let fromX = layout.panelX(isPresented: old.isPresented)
        let toX = layout.panelX(isPresented: new.isPresented)
        // Rule: the panel's travel must survive floating point (a container far wider than the panel absorbs it).
        guard fromX != toX else { return .failure(.travelNotRepresentable) }
        let motion = DrawerSpringMotion(spring: input.spring, fromX: fromX, toX: toX, start: input.start)
        let plan: DrawerMotionPlan
        switch planner(motion, input.frameRate, maxWork) {
        case .success(let made):
            plan = made
            _ = meter.advance(made.work)
        case .failure(let violation):
            // Rule: the samples a refused motion made count as any plan's work.
            _ = meter.advance(violation.work)
            // Rule: blamed on the start when the same spring from rest keeps to the limits, else on the spring. The
            // plan from rest is asked of the same planner (a cache keeps it, for the client that asks for it next) and
            // counts too: a refusal blamed on its start costs at most two plans' work.
            var blameStart = false
            if input.start != nil {
                switch planner(DrawerSpringMotion(spring: motion.spring), input.frameRate, maxWork) {
                case .success(let atRest):
                    blameStart = true
                    _ = meter.advance(atRest.work)
                case .failure(let atRest):
                    _ = meter.advance(atRest.work)
                }
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

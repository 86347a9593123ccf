import TrellisCore
import TrellisJSON

/// `POST /v1/drawer/state`: the next state, its frames and the spring transition.
enum DrawerStateEndpoint: Endpoint {
    static let path = "/v1/drawer/state"
    static let workingMemoryPerByte = 4

    static func respond(
        to request: DrawerInput, _ context: FeatureContext, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter
    ) {
        var motion: [UInt8]?
        let resolved = DrawerResolver.compute(request, meter: &meter) { spring, frameRate, maxWork in
            // Recent motions' plans and written members, shared by every request.
            let entry = context.drawerPlans.entry(spring, frameRate: frameRate, maxWork: maxWork)
            motion = entry.fragment
            return entry.plan
        }
        switch resolved {
        case .success(let result):
            DrawerStateResponse.write(result, motion: motion, to: &json)
        case .failure(let refusal):
            record(refusal, &problems)
        }
    }

    /// The problem for a refused step, at the member to blame.
    private static func record(_ refusal: DrawerRefusal, _ problems: inout Problems) {
        guard case .motion(let violation, let blameStart) = refusal else {
            problems.add(pointer: "/container/width", "is too large next to the panel's width for its travel to be represented")
            return
        }
        let subject = blameStart ? "with this start position and velocity the transition" : "with this spring the transition"
        let detail: String
        switch violation {
        case .nonFinite:
            detail = blameStart
                ? "is too far from the panel's travel, or too fast, for the spring's progress to be represented"
                : "gives a stiffness or damping too large to represent; use a longer response or duration"
        case .settlesTooLate:
            detail = "\(subject) would not settle (|1 − p| < 0.001) within \(Int(DrawerLimits.maxSettlingDuration)) s"
        case .tooManyKeyframes(let needed, let allowed):
            detail = "\(subject) at this frameRate needs \(needed) keyframes; a request may ask for at most \(allowed) keyframes and "
                + "easing samples together: use a spring that settles sooner or a lower frameRate"
        case .tooManySamples(let allowed):
            detail = "\(subject) changes too fast or too often for a CSS easing within 0.002 of it: that would need more than \(allowed) samples "
                + "(what its keyframes at this frameRate leave of the \(DrawerLimits.maxWork) keyframes and easing samples a request "
                + "may ask for): use a spring that rings less or a lower frameRate"
        }
        problems.add(pointer: blameStart ? "/from" : "/spring", detail)
    }
}

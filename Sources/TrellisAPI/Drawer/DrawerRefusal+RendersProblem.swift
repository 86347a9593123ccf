import TrellisCore

/// A refused step is one of the body's problems, at the member to blame: the container when the panel's travel
/// vanishes, else the start position and velocity or the spring, as the refusal says.
extension DrawerRefusal: RendersProblem {
    var blame: ProblemBlame? {
        guard case .motion(_, let blameStart) = self else { return .member("/container/width") }
        return .member(blameStart ? "/from" : "/spring")
    }

    var detail: String {
        guard case .motion(let violation, let blameStart) = self else {
            return "is too large next to the panel's width for its travel to be represented"
        }
        let subject = blameStart ? "with this start position and velocity the transition" : "with this spring the transition"
        switch violation {
        case .nonFinite:
            return blameStart
                ? "is too far from the panel's travel, or too fast, for the spring's progress to be represented"
                : "gives a stiffness or damping too large to represent; use a longer response or duration"
        case .settlesTooLate:
            return "\(subject) would not settle (|1 − p| < 0.001) within \(Int(DrawerLimits.maxSettlingDuration)) s"
        case .tooManyKeyframes(let needed, let allowed):
            return "\(subject) at this frameRate needs \(needed) keyframes; a request may ask for at most \(allowed) keyframes and "
                + "easing samples together: use a spring that settles sooner or a lower frameRate"
        case .tooManySamples(let allowed):
            return "\(subject) changes too fast or too often for a CSS easing within 0.002 of it: that would need more than \(allowed) samples "
                + "(what its keyframes at this frameRate leave of the \(DrawerLimits.maxWork) keyframes and easing samples a request "
                + "may ask for): use a spring that rings less or a lower frameRate"
        }
    }
}

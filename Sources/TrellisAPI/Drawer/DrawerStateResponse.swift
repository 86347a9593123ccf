import TrellisJSON
import TrellisCore

/// The 200 answer: the final state's frames and, when the state changed, the transition.
enum DrawerStateResponse {
    /// `motion`: the transition's `keyframes` and `css` members already written (DrawerPlanCache).
    static func write(_ result: DrawerOutput, motion: [UInt8]? = nil, to json: inout JSONWriter) {
        let geometry = result.geometry
        json.beginObject()
        json.key("isPresented"); json.bool(result.state.isPresented)
        json.key("changed"); json.bool(result.changed)
        json.key("panel")
        json.beginObject()
        json.key("frame"); write(geometry.panelFrame, to: &json)
        json.key("contentFrame"); write(geometry.contentFrame, to: &json)
        json.key("visible"); json.bool(geometry.panelVisible)
        json.endObject()
        json.key("mask")
        json.beginObject()
        json.key("frame"); write(geometry.maskFrame, to: &json)
        json.key("opacity"); json.number(geometry.maskOpacity)
        json.key("visible"); json.bool(geometry.maskVisible)
        json.endObject()
        if let transition = result.transition {
            json.key("transition"); write(transition, motion: motion, to: &json)
        }
        json.endObject()
    }

    private static func write(_ transition: DrawerTransition, motion: [UInt8]?, to json: inout JSONWriter) {
        let spring = transition.motion.spring
        json.beginObject()
        json.key("panel")
        json.beginObject()
        json.key("fromX"); json.number(transition.panelFromX)
        json.key("toX"); json.number(transition.panelToX)
        json.endObject()
        json.key("mask")
        json.beginObject()
        json.key("fromOpacity"); json.number(transition.maskFromOpacity)
        json.key("toOpacity"); json.number(transition.maskToOpacity)
        json.endObject()
        json.key("spring")
        json.beginObject()
        json.key("response"); json.number(spring.response)
        json.key("dampingFraction"); json.number(spring.dampingFraction)
        json.key("stiffness"); json.number(spring.stiffness)
        json.key("damping"); json.number(spring.damping)
        json.key("settlingDuration"); json.number(transition.settlingDuration)
        json.endObject()
        if let motion {
            motion.withUnsafeBytes { json.spliceMembers($0) }
        } else {
            writeMotion(DrawerMotionPlan(
                settlingDuration: transition.settlingDuration, easingDuration: transition.easingDuration,
                keyframes: transition.keyframes, easingStops: transition.easingStops), to: &json)
        }
        json.endObject()
    }

    /// The members `keyframes` and `css` of a transition: what depends on its motion alone.
    static func writeMotion(_ plan: DrawerMotionPlan, to json: inout JSONWriter) {
        json.key("keyframes")
        json.beginArray()
        for keyframe in plan.keyframes {
            // A writer past its bound writes nothing more: the rest is not formatted.
            if json.failure != nil { return }
            json.beginObject()
            json.key("t"); json.number(keyframe.t)
            json.key("progress"); json.number(keyframe.progress)
            json.endObject()
        }
        json.endArray()
        json.key("css")
        json.beginObject()
        json.key("duration"); json.string(DrawerCSSEasing.duration(milliseconds: (plan.easingDuration * 1000).rounded()))
        json.key("easing")
        DrawerCSSEasing.linearBytes(plan.easingStops).withUnsafeBytes { json.string(utf8: $0) }
        json.endObject()
    }

    private static func write(_ rect: Rect, to json: inout JSONWriter) {
        json.beginObject()
        json.key("x"); json.number(rect.x)
        json.key("y"); json.number(rect.y)
        json.key("width"); json.number(rect.width)
        json.key("height"); json.number(rect.height)
        json.endObject()
    }
}

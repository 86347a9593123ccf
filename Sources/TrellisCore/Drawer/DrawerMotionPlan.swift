/// What a transition's motion needs beyond its spring: when it settles, the span of its CSS easing,
/// its keyframes at a frame rate and the easing's stops. A function of the motion and the frame
/// rate alone, so a caller may keep plans for motions that repeat.
public struct DrawerMotionPlan: Sendable, Equatable, Hashable {
    /// Seconds until |1 − p(t)| stays below 0.001.
    public var settlingDuration: Double
    /// The settling duration rounded up to whole milliseconds.
    public var easingDuration: Double
    /// p(t) sampled at the frame rate.
    public var keyframes: [DrawerKeyframe]
    /// The CSS linear() easing's stops over easingDuration.
    public var easingStops: [DrawerEasingStop]
    /// Rule: keyframes plus the easing's samples.
    public var work: Int

    public init(
        settlingDuration: Double, easingDuration: Double, keyframes: [DrawerKeyframe], easingStops: [DrawerEasingStop], work: Int = 0
    ) {
        self.settlingDuration = settlingDuration
        self.easingDuration = easingDuration
        self.keyframes = keyframes
        self.easingStops = easingStops
        self.work = work
    }

    /// The plan of `motion` at `frameRate`, or the limit the motion breaks: `.tooManyKeyframes` before any keyframe or
    /// sample is made when the keyframes alone pass `maxWork`, `.tooManySamples` once the easing's samples pass what
    /// the keyframes leave of it.
    public static func make(
        _ motion: DrawerSpringMotion, frameRate: Double, maxWork: Int = DrawerLimits.maxWork
    ) -> Result<DrawerMotionPlan, DrawerLimitViolation> {
        DrawerLimits.settlingDuration(of: motion).flatMap { settling in
            let frames = DrawerLimits.keyframeCount(frameRate: frameRate, settling: settling)
            guard frames <= maxWork else { return .failure(.tooManyKeyframes(needed: frames, allowed: maxWork)) }
            let easingDuration = DrawerLimits.easingDuration(settling: settling)
            guard let samples = DrawerLinearEasing.samples(for: motion, duration: easingDuration, limit: maxWork - frames) else {
                return .failure(.tooManySamples(allowed: maxWork - frames))
            }
            return .success(DrawerMotionPlan(
                settlingDuration: settling,
                easingDuration: easingDuration,
                keyframes: motion.keyframes(frameRate: frameRate, settlingDuration: settling),
                easingStops: DrawerLinearEasing.stops(fitting: samples),
                work: frames + samples.count
            ))
        }
    }
}

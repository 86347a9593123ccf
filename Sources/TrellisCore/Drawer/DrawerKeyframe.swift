/// One keyframe: the spring's progress at time t (seconds).
public struct DrawerKeyframe: Sendable, Equatable, Hashable {
    /// Seconds since the transition started.
    public var t: Double
    /// p(t): 0 at the old state, 1 at the new one; a spring may overshoot.
    public var progress: Double

    /// The progress at time t.
    public init(t: Double, progress: Double) {
        self.t = t
        self.progress = progress
    }
}

/// One keyframe: the spring's progress at time t (seconds).
public struct DrawerKeyframe: Sendable, Equatable, Hashable {
    public var t: Double
    public var progress: Double

    public init(t: Double, progress: Double) {
        self.t = t
        self.progress = progress
    }
}

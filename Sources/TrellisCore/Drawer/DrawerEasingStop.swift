/// One `linear()` stop: an output progress at a fraction of the duration in [0, 1].
public struct DrawerEasingStop: Sendable, Equatable, Hashable {
    public var progress: Double
    public var timeFraction: Double

    public init(progress: Double, timeFraction: Double) {
        self.progress = progress
        self.timeFraction = timeFraction
    }
}

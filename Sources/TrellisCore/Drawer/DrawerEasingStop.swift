/// One `linear()` stop: an output progress at a fraction of the duration in [0, 1].
public struct DrawerEasingStop: Sendable, Equatable, Hashable {
    /// The easing's output at this stop.
    public var progress: Double
    /// The stop's position in the duration, 0 through 1.
    public var timeFraction: Double

    /// One stop of a CSS linear() easing.
    public init(progress: Double, timeFraction: Double) {
        self.progress = progress
        self.timeFraction = timeFraction
    }
}

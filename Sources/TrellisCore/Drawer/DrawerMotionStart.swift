/// Where a retargeted panel starts: its current x and its velocity (points per second).
public struct DrawerMotionStart: Sendable, Equatable, Hashable {
    /// The panel's current x in container coordinates.
    public var x: Double
    /// The panel's current velocity in points per second.
    public var velocity: Double

    /// A start for a transition retargeted mid-flight.
    public init(x: Double, velocity: Double) {
        self.x = x
        self.velocity = velocity
    }
}

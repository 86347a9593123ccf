/// Where a retargeted panel starts: its current x and its velocity (points per second).
public struct DrawerMotionStart: Sendable, Equatable, Hashable {
    public var x: Double
    public var velocity: Double

    public init(x: Double, velocity: Double) {
        self.x = x
        self.velocity = velocity
    }
}

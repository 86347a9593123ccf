/// Issue 6 "Request › from": the panel's current x and velocity (points per second) when retargeted.
public struct DrawerMotionStart: Sendable, Equatable, Hashable {
    public var x: Double
    public var velocity: Double

    public init(x: Double, velocity: Double) {
        self.x = x
        self.velocity = velocity
    }
}

/// Where the CSS easing looked at p(t): sample positions on the easing's time grid and p there.
public struct DrawerEasingSamples: Sendable, Equatable {
    /// The easing's span in seconds.
    public var duration: Double
    /// Grid positions, 0 through DrawerLinearEasing.timeResolution, increasing; position n is at n/timeResolution of the duration.
    public var positions: [Int]
    /// p at each position.
    public var progress: [Double]

    /// Samples of p over `duration` at grid positions.
    public init(duration: Double, positions: [Int], progress: [Double]) {
        self.duration = duration
        self.positions = positions
        self.progress = progress
    }

    /// How many samples were taken after the first.
    public var count: Int { positions.count - 1 }
}

/// The spring as a CSS `linear()` easing: p(t) sampled as finely as its curvature needs, and simplified to the
/// fewest stops within a tolerance.
public enum DrawerLinearEasing: Sendable, Equatable {
    /// Rule: the easing stays within 0.002 of p(t) everywhere.
    public static let defaultMaxError = 0.002

    /// Stops are the printed values themselves: progress rounded to 6 decimals, time fractions n/10⁶ (percentages
    /// with 4 decimals).
    public static let progressDecimals = 6
    /// Rule: stops and samples sit on a grid of a millionth of the duration.
    public static let timeResolution = 1_000_000
    /// Rule: the easing's stops over `duration`, or nil when p changes too fast for `sampleLimit` samples.
    public static func stops(
        for motion: DrawerSpringMotion, duration: Double, maxError: Double = defaultMaxError, sampleLimit: Int = DrawerLimits.maxWork
    ) -> [DrawerEasingStop]? {
        samples(for: motion, duration: duration, maxError: maxError, limit: sampleLimit).map { stops(fitting: $0, maxError: maxError) }
    }

    /// Step 1: p sampled from t = 0 to `duration`, each step as long as the curvature allows: from a sample at t the
    /// next is h later, h the longest whole number of grid steps with h²/8 · curvatureBound(from: t) ≤ maxError / 20,
    /// so that between two samples p strays at most a twentieth of maxError from their chord. The bound decays with
    /// the motion, so the samples' count is about ∫√(curvatureBound(from: t)) dt / √(maxError / 2.5), which converges
    /// however long the easing lasts: it follows the curve's bends, as the stops do. Nil past `limit` samples, or
    /// where a step would be shorter than the grid's (p then turns faster than the stops can follow).
    public static func samples(
        for motion: DrawerSpringMotion, duration: Double, maxError: Double = defaultMaxError, limit: Int = DrawerLimits.maxWork
    ) -> DrawerEasingSamples? {
        guard duration > 0 else { return DrawerEasingSamples(duration: 0, positions: [0], progress: [motion.initialProgress]) }
        let grid = Double(timeResolution) / duration
        let allowance = 8 * (maxError / 20)
        var positions = [0]
        var progress = [motion.initialProgress]
        var bound = motion.curvatureBound(from: 0)
        var position = 0
        while position < timeResolution {
            // Grid steps to the next sample: h · grid, h = √(allowance / bound); an infinite one (a motion at rest) ends it.
            let steps = (allowance / bound).squareRoot() * grid
            guard steps >= 1, positions.count <= limit else { return nil }
            position = steps >= Double(timeResolution - position) ? timeResolution : position + Int(steps)
            let sample = motion.sample(at: Double(position) / grid)
            positions.append(position)
            progress.append(sample.progress)
            bound = sample.curvatureBound
        }
        return DrawerEasingSamples(duration: duration, positions: positions, progress: progress)
    }

    /// Step 2: stops at sample positions, the last one (1, 1), each chord within maxError of the continuous p(t).
    ///
    /// A greedy pass takes from each stop the farthest sample whose chord, between the printed values, stays within
    /// maxError − maxError/20 of every sample in between (the slope window they allow); with step 1's spacing the
    /// chord then stays within maxError between samples too. A fraction n/10⁶ printed as a percentage with 4
    /// decimals, and a progress with 6, is exactly the stop that was checked.
    public static func stops(fitting samples: DrawerEasingSamples, maxError: Double = defaultMaxError) -> [DrawerEasingStop] {
        let count = samples.count
        guard count > 0 else {
            return [DrawerEasingStop(progress: 1, timeFraction: 0), DrawerEasingStop(progress: 1, timeFraction: 1)]
        }
        let positions = samples.positions
        let curve = samples.progress
        let unit = samples.duration / Double(timeResolution)
        let sampleTolerance = maxError - maxError / 20
        let scale = (0..<progressDecimals).reduce(1.0) { product, _ in product * 10 }
        let vertex = { (i: Int) in i == count ? 1 : (curve[i] * scale).rounded() / scale }
        let fraction = { (i: Int) in i == count ? 1 : Double(positions[i]) / Double(timeResolution) }

        var stops = [DrawerEasingStop(progress: vertex(0), timeFraction: 0)]
        var anchor = 0
        while anchor < count {
            var lowSlope = -Double.infinity
            var highSlope = Double.infinity
            var farthest = anchor + 1
            var j = anchor + 1
            let start = vertex(anchor)
            while j <= count {
                let dt = Double(positions[j] - positions[anchor]) * unit
                lowSlope = max(lowSlope, (curve[j] - sampleTolerance - start) / dt)
                highSlope = min(highSlope, (curve[j] + sampleTolerance - start) / dt)
                if lowSlope > highSlope { break }
                let slope = (vertex(j) - start) / dt
                if slope >= lowSlope && slope <= highSlope { farthest = j }
                j += 1
            }
            stops.append(DrawerEasingStop(progress: vertex(farthest), timeFraction: fraction(farthest)))
            anchor = farthest
        }
        return stops
    }
}

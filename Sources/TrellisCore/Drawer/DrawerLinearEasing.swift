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
            // Rule: a motion whose samples surely pass the limit is refused without making them all.
            if let look = lookahead.first(where: { $0.samples == positions.count }), positions.count < limit,
                Double(positions.count - 1) + 0.99 * samplesLowerBound(
                    motion, from: Double(position) / grid, to: duration, bound: bound, allowance: allowance, evaluations: look.evaluations)
                    > Double(limit + 1)
            {
                return nil
            }
            position = steps >= Double(timeResolution - position) ? timeResolution : position + Int(steps)
            let sample = motion.sample(at: Double(position) / grid)
            positions.append(position)
            progress.append(sample.progress)
            bound = sample.curvatureBound
        }
        return DrawerEasingSamples(duration: duration, positions: positions, progress: progress)
    }

    /// When step 1 looks ahead (after how many samples) and how many evaluations of p it spends on it.
    static let lookahead: [(samples: Int, evaluations: Int)] = [(256, 96), (1_024, 64)]
    /// How many of step 1's steps one evaluation of the lookahead spans.
    static let lookaheadStride = 32.0

    /// A lower bound on the samples step 1 still takes from `start` (where the curvature bound is `bound`) to `end`,
    /// from at most `evaluations` evaluations of p.
    ///
    /// Step 1's step from t is at most h(t) = √(allowance / curvatureBound(from: t)), and the bound never increases, so
    /// over a step from tᵢ the integrand √(curvatureBound(from: t) / allowance) is at most 1 / h(tᵢ) and the step adds at
    /// most 1 to ∫ √(curvatureBound(from: t) / allowance) dt: the samples from `start` to `end` are at least that
    /// integral. For the same reason the integral is at least the sum, over any points start = s₀ < s₁ < … ≤ end, of
    /// (sⱼ₊₁ − sⱼ) · √(curvatureBound(from: sⱼ₊₁) / allowance); here each point is `lookaheadStride` steps of h past the
    /// one before it.
    static func samplesLowerBound(
        _ motion: DrawerSpringMotion, from start: Double, to end: Double, bound: Double, allowance: Double, evaluations: Int
    ) -> Double {
        var total = 0.0
        var time = start
        var curvature = bound
        for _ in 0..<evaluations where time < end {
            let step = lookaheadStride * (allowance / curvature).squareRoot()
            guard step.isFinite, step > 0 else { break }
            let next = min(end, time + step)
            curvature = motion.sample(at: next).curvatureBound
            guard curvature.isFinite, curvature >= 0 else { break }
            total += (next - time) * (curvature / allowance).squareRoot()
            time = next
        }
        return total.isFinite ? total : 0
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

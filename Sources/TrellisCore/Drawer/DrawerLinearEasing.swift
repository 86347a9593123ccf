/// The spring as a CSS `linear()` easing: p(t) sampled finely and simplified to the fewest stops within a tolerance.
public enum DrawerLinearEasing: Sendable, Equatable {
    /// Rule: the easing stays within 0.002 of p(t) everywhere.
    public static let defaultMaxError = 0.002
    /// Rule: p(t) is sampled at 1 ms or finer.
    public static let maximumStep = 0.001

    /// Stops are the printed values themselves: progress rounded to 6 decimals, time fractions k/N with N dividing 10⁶.
    public static let progressDecimals = 6
    /// Rule: at most 100,000 samples (N divides 10⁶), so no request costs more than a few milliseconds of sampling.
    public static let sampleCountLimit = 100_000

    /// Stops at sample times, the last one (1, 1); each chord is within maxError of the continuous p(t).
    ///
    /// The step h keeps the between-samples error h²/8·max|p″| to a twentieth of maxError, so chords are checked
    /// against the samples with the rest; a greedy pass takes from each stop the farthest sample whose chord stays
    /// within the slope window allowed by every sample in between (O(n)). The sample count N divides 10⁶, so a
    /// fraction printed as a percentage with 4 decimals, and a progress with 6, is exactly the stop that was checked.
    public static func stops(for motion: DrawerSpringMotion, duration: Double, maxError: Double) -> [DrawerEasingStop] {
        guard duration > 0 else {
            return [DrawerEasingStop(progress: 1, timeFraction: 0), DrawerEasingStop(progress: 1, timeFraction: 1)]
        }
        let curvature = max(motion.curvatureBound, .leastNormalMagnitude)
        let count = sampleCount(for: motion, duration: duration, maxError: maxError)
        let h = duration / Double(count)
        let sampleTolerance = maxError - h * h / 8 * curvature
        let curve = (0...count).map { motion.progress(at: Double($0) * h) }
        let scale = (0..<progressDecimals).reduce(1.0) { product, _ in product * 10 }
        let vertex = { (i: Int) in i == count ? 1 : (curve[i] * scale).rounded() / scale }

        var stops = [DrawerEasingStop(progress: vertex(0), timeFraction: 0)]
        var anchor = 0
        while anchor < count {
            var lowSlope = -Double.infinity
            var highSlope = Double.infinity
            var farthest = anchor + 1
            var j = anchor + 1
            let start = vertex(anchor)
            while j <= count {
                let dt = Double(j - anchor) * h
                lowSlope = max(lowSlope, (curve[j] - sampleTolerance - start) / dt)
                highSlope = min(highSlope, (curve[j] + sampleTolerance - start) / dt)
                if lowSlope > highSlope { break }
                let slope = (vertex(j) - start) / dt
                if slope >= lowSlope && slope <= highSlope { farthest = j }
                j += 1
            }
            stops.append(
                DrawerEasingStop(progress: vertex(farthest), timeFraction: farthest == count ? 1 : Double(farthest) / Double(count))
            )
            anchor = farthest
        }
        return stops
    }

    /// The number of samples `stops` takes over `duration` (the step keeps the between-samples error to a
    /// twentieth of maxError).
    public static func sampleCount(for motion: DrawerSpringMotion, duration: Double, maxError: Double = defaultMaxError) -> Int {
        guard duration > 0 else { return 0 }
        let curvature = max(motion.curvatureBound, .leastNormalMagnitude)
        let step = min(maximumStep, (8 * (maxError / 20) / curvature).squareRoot())
        return decimalSampleCount(atLeast: (duration / step).rounded(.up))
    }

    /// The smallest N = 2^a·5^b (a, b ≤ 6) at or above `needed`, capped at sampleCountLimit: k/N then has at most 6 decimals.
    static func decimalSampleCount(atLeast needed: Double) -> Int {
        var best = sampleCountLimit
        var power5 = 1
        for _ in 0...6 {
            var candidate = power5
            for _ in 0...6 {
                if Double(candidate) >= needed {
                    best = min(best, candidate)
                    break
                }
                candidate *= 2
            }
            power5 *= 5
        }
        return best
    }
}

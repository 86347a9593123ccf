import TrellisCore
import XCTest

/// The CSS easing against the analytic curve it stands for: within 0.002 of p(t) everywhere (between samples too),
/// with samples that follow the curve's bends rather than its duration.
final class DrawerEasingErrorBoundTests: XCTestCase {
    /// Motions over the regimes, long and short, from rest and mid-flight: the SwiftUI springs a user sends (response up
    /// to 1.5 s, dampingFraction 0.2 to 2.5), the service's default, and stiff ringing ones.
    private static let motions: [DrawerSpringMotion] = [
        DrawerSpringMotion(spring: .default),
        DrawerSpringMotion(spring: DrawerSpring(response: 1.0, dampingFraction: 2.5)),
        DrawerSpringMotion(spring: DrawerSpring(response: 1.5, dampingFraction: 2.5)),
        DrawerSpringMotion(spring: DrawerSpring(response: 1.5, dampingFraction: 0.2)),
        DrawerSpringMotion(spring: DrawerSpring(response: 1.5, dampingFraction: 1)),
        DrawerSpringMotion(spring: DrawerSpring(response: 0.01, dampingFraction: 0.2)),
        DrawerSpringMotion(spring: DrawerSpring(response: 0.05, dampingFraction: 0.03)),
        DrawerSpringMotion(spring: DrawerSpring(response: 0.8, dampingFraction: 0.999999), initialProgress: 0.3, initialVelocity: 4),
        DrawerSpringMotion(spring: DrawerSpring(response: 0.8, dampingFraction: 1.000001), initialProgress: -0.5, initialVelocity: 0),
        DrawerSpringMotion(spring: DrawerSpring(response: 1.2, dampingFraction: 6), initialProgress: 1.2, initialVelocity: -3),
        DrawerSpringMotion(spring: DrawerSpring(duration: 0.35, bounce: 0.5), initialProgress: 0.6, initialVelocity: 12),
    ]

    /// The easing as CSS plays it: linear between stops, at a fraction of the duration.
    private func easing(_ stops: [DrawerEasingStop], at fraction: Double, hint: inout Int) -> Double {
        while hint < stops.count - 1 && stops[hint + 1].timeFraction < fraction { hint += 1 }
        let a = stops[hint], b = stops[min(hint + 1, stops.count - 1)]
        guard b.timeFraction > a.timeFraction else { return b.progress }
        return a.progress + (b.progress - a.progress) * (fraction - a.timeFraction) / (b.timeFraction - a.timeFraction)
    }

    /// The largest gap between the easing and p(t) at `points` evenly spaced fractions and 16 points inside every span
    /// between two consecutive samples, where the sampling leaves the curve unchecked.
    private func worstGap(_ stops: [DrawerEasingStop], _ samples: DrawerEasingSamples, _ motion: DrawerSpringMotion, points: Int) -> Double {
        var fractions = (0...points).map { Double($0) / Double(points) }
        let grid = Double(DrawerLinearEasing.timeResolution)
        for (a, b) in zip(samples.positions, samples.positions.dropFirst()) {
            fractions += (1..<16).map { (Double(a) + Double(b - a) * Double($0) / 16) / grid }
        }
        fractions.sort()
        var hint = 0
        return fractions.map { abs(easing(stops, at: $0, hint: &hint) - motion.progress(at: $0 * samples.duration)) }.max()!
    }

    func testTheEasingStaysWithinTheBoundOfTheAnalyticCurve() throws {
        for motion in Self.motions {
            let settling = try DrawerLimits.settlingDuration(of: motion).get()
            let duration = DrawerLimits.easingDuration(settling: settling)
            let samples = try XCTUnwrap(DrawerLinearEasing.samples(for: motion, duration: duration, limit: 1_000_000), "\(motion)")
            let stops = DrawerLinearEasing.stops(fitting: samples)
            XCTAssertEqual(stops.first?.timeFraction, 0)
            XCTAssertEqual(stops.last, DrawerEasingStop(progress: 1, timeFraction: 1))
            XCTAssertTrue(zip(stops, stops.dropFirst()).allSatisfy { $0.timeFraction < $1.timeFraction }, "\(motion)")
            XCTAssertLessThanOrEqual(worstGap(stops, samples, motion, points: 200_000), DrawerLinearEasing.defaultMaxError, "\(motion)")
        }
    }

    /// Rule: curvatureBound(from: t) bounds |p″(s)| for every s ≥ t and never grows; checked against an RK4 integration of
    /// x″ = −k·x − c·x′, whose p″ is read off the equation.
    func testTheCurvatureBoundHoldsForEveryLaterTimeAndNeverGrows() {
        let starts: [(Double, Double)] = [(0, 0), (0, 6), (0.4, -3), (1.2, 2), (1, 0.8)]
        for zeta in [0.05, 0.2, 0.825, 0.999999, 1, 1.000001, 1.5, 2.5, 8] {
            let spring = DrawerSpring(response: 0.4, dampingFraction: zeta)
            for (progress, velocity) in starts {
                let motion = DrawerSpringMotion(spring: spring, initialProgress: progress, initialVelocity: velocity)
                let path = SpringODE(spring).trajectory(progress: progress, velocity: velocity, step: 1e-5, duration: 4, every: 10)
                let curvature = path.map { abs(-spring.stiffness * ($0.p - 1) - spring.damping * $0.v) }
                // Walking back from the end: the most |p″| reaches from each time on, and the bound there (the
                // integration's own error, about 1e-9 of p″, is allowed for).
                var laterMax = 0.0
                var later = 0.0
                for i in stride(from: path.count - 1, through: 0, by: -1) {
                    laterMax = max(laterMax, curvature[i])
                    let bound = motion.curvatureBound(from: path[i].t)
                    XCTAssertGreaterThanOrEqual(bound + 1e-7, laterMax, "ζ=\(zeta) (\(progress), \(velocity)) at \(path[i].t)")
                    XCTAssertGreaterThanOrEqual(bound * (1 + 1e-12), later, "ζ=\(zeta) (\(progress), \(velocity)) grows at \(path[i].t)")
                    later = bound
                }
            }
        }
    }

    /// The samples' count is a property of the curve's shape: a spring 100 times slower takes as many, however long it lasts.
    func testTheSamplesFollowTheCurveNotItsDuration() throws {
        for zeta in [0.2, 0.825, 1, 2.5] {
            var counts: [Int] = []
            for response in [0.015, 0.15, 1.5] {
                let motion = DrawerSpringMotion(spring: DrawerSpring(response: response, dampingFraction: zeta))
                let duration = DrawerLimits.easingDuration(settling: motion.settlingDuration())
                counts.append(try XCTUnwrap(DrawerLinearEasing.samples(for: motion, duration: duration)).count)
            }
            XCTAssertLessThanOrEqual(counts.max()! - counts.min()!, 2, "ζ=\(zeta): \(counts)")
        }
        // Overdamped from rest: a few dozen samples for the long tail, where sampling every millisecond took 8,000.
        let overdamped = DrawerSpringMotion(spring: DrawerSpring(response: 1.5, dampingFraction: 2.5))
        let duration = DrawerLimits.easingDuration(settling: overdamped.settlingDuration())
        XCTAssertGreaterThan(duration, 7.9)
        XCTAssertLessThan(try XCTUnwrap(DrawerLinearEasing.samples(for: overdamped, duration: duration)).count, 100)
    }

    /// Past its limit the sampler stops and says so; a motion that turns faster than a millionth of the duration can follow is refused at any limit.
    func testSamplingStopsAtItsLimit() {
        let ringing = DrawerSpringMotion(spring: DrawerSpring(response: 0.05, dampingFraction: 0.03))
        let duration = DrawerLimits.easingDuration(settling: ringing.settlingDuration())
        XCTAssertNil(DrawerLinearEasing.samples(for: ringing, duration: duration, limit: 1_000))
        XCTAssertNotNil(DrawerLinearEasing.samples(for: ringing, duration: duration, limit: 2_500))
        let flung = DrawerSpringMotion(spring: .default, initialVelocity: 1e12)
        XCTAssertNil(DrawerLinearEasing.samples(for: flung, duration: 1, limit: .max))
    }
}

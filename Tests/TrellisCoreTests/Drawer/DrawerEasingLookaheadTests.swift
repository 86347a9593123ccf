@testable import TrellisCore
import XCTest

/// The easing's sampling refuses a motion whose samples surely pass the limit without making them all, from a lower
/// bound on the samples still to come: a bound that is ever too high would refuse a motion the limit admits.
final class DrawerEasingLookaheadTests: XCTestCase {
    private static func motions(_ count: Int, seed: UInt64) -> [DrawerSpringMotion] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let spring = DrawerSpring(response: pow(10, -1.5 + 1.8 * next()), dampingFraction: pow(10, -2 + 2.6 * next()))
            return next() < 0.5
                ? DrawerSpringMotion(spring: spring)
                : DrawerSpringMotion(spring: spring, initialProgress: 2 * next() - 1, initialVelocity: 40 * next() - 20)
        }
    }

    /// From the start and from the samples where the lookahead looks, the bound never exceeds the samples step 1 takes.
    func testTheLowerBoundNeverExceedsTheSamplesTaken() throws {
        let allowance = 8 * (DrawerLinearEasing.defaultMaxError / 20)
        var checked = 0
        for motion in Self.motions(400, seed: 3) {
            guard case .success(let settling) = DrawerLimits.settlingDuration(of: motion) else { continue }
            let duration = DrawerLimits.easingDuration(settling: settling)
            guard let samples = DrawerLinearEasing.samples(for: motion, duration: duration, limit: 200_000) else { continue }
            for from in [0, 256, 1_024] where from < samples.count {
                let time = Double(samples.positions[from]) * duration / Double(DrawerLinearEasing.timeResolution)
                for evaluations in [8, 96, 10_000] {
                    let bound = DrawerLinearEasing.samplesLowerBound(
                        motion, from: time, to: duration, bound: motion.curvatureBound(from: time), allowance: allowance,
                        evaluations: evaluations)
                    XCTAssertLessThanOrEqual(Double(from) + bound, Double(samples.count) + 1e-6, "\(motion) from sample \(from)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000)
    }

    /// A start and a spring far past the limit are refused from the lookahead after 256 samples: its bound from there
    /// already passes the limit (and the refusal is the one the samples would have reached).
    func testAMotionFarPastTheLimitIsRefusedFromTheLookahead() throws {
        let allowance = 8 * (DrawerLinearEasing.defaultMaxError / 20)
        let spring = DrawerSpring(response: 0.05, dampingFraction: 0.005)
        for motion in [DrawerSpringMotion(spring: spring), DrawerSpringMotion(spring: spring, initialProgress: -1, initialVelocity: 400)] {
            guard case .success(let settling) = DrawerLimits.settlingDuration(of: motion) else { return XCTFail("\(motion) settles") }
            let duration = DrawerLimits.easingDuration(settling: settling)
            XCTAssertNil(DrawerLinearEasing.samples(for: motion, duration: duration, limit: DrawerLimits.maxWork))
            let all = try XCTUnwrap(DrawerLinearEasing.samples(for: motion, duration: duration, limit: 200_000))
            XCTAssertGreaterThan(all.count, 2 * DrawerLimits.maxWork)
            let time = Double(all.positions[256]) * duration / Double(DrawerLinearEasing.timeResolution)
            let bound = DrawerLinearEasing.samplesLowerBound(
                motion, from: time, to: duration, bound: motion.curvatureBound(from: time), allowance: allowance, evaluations: 96)
            XCTAssertGreaterThan(255 + 0.99 * bound, Double(DrawerLimits.maxWork + 1))
        }
    }
}

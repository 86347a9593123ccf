@testable import TrellisCore
import XCTest
@testable import TrellisAPI

final class DrawerCSSEasingTests: XCTestCase {
    func testFixedDecimalsAreRoundedAndTrimmed() {
        XCTAssertEqual(DrawerCSSEasing.fixed(0, decimals: 6), "0")
        XCTAssertEqual(DrawerCSSEasing.fixed(-0.0000001, decimals: 6), "0")
        XCTAssertEqual(DrawerCSSEasing.fixed(1, decimals: 6), "1")
        XCTAssertEqual(DrawerCSSEasing.fixed(0.5, decimals: 6), "0.5")
        XCTAssertEqual(DrawerCSSEasing.fixed(0.0000014, decimals: 6), "0.000001")
        XCTAssertEqual(DrawerCSSEasing.fixed(1.0123456789, decimals: 6), "1.012346")
        XCTAssertEqual(DrawerCSSEasing.fixed(-0.25, decimals: 6), "-0.25")
        XCTAssertEqual(DrawerCSSEasing.fixed(-12.000001, decimals: 6), "-12.000001")
        XCTAssertEqual(DrawerCSSEasing.fixed(4.166699999999, decimals: 4), "4.1667")
        XCTAssertEqual(DrawerCSSEasing.fixed(758, decimals: 0), "758")
        XCTAssertEqual(DrawerCSSEasing.fixed(1e20, decimals: 6), "1e+20")
    }

    func testTheDurationIsRoundedUpToWholeMilliseconds() {
        XCTAssertEqual(DrawerLimits.easingDuration(settling: 0.7574549580288646), 0.758)
        XCTAssertEqual(DrawerLimits.easingDuration(settling: 0.758), 0.758)
        XCTAssertEqual(DrawerLimits.easingDuration(settling: 0), 0)
        XCTAssertEqual(DrawerCSSEasing.duration(milliseconds: 758), "758ms")
    }

    func testLinearPrintsTheFirstAndLastStopsWithoutPercentages() {
        let stops = [
            DrawerEasingStop(progress: 0, timeFraction: 0),
            DrawerEasingStop(progress: 0.0123, timeFraction: 0.041667),
            DrawerEasingStop(progress: 1.008836, timeFraction: 0.7125),
            DrawerEasingStop(progress: 1, timeFraction: 1),
        ]
        XCTAssertEqual(DrawerCSSEasing.linear(stops), "linear(0, 0.0123 4.1667%, 1.008836 71.25%, 1)")
        XCTAssertEqual(
            DrawerCSSEasing.linear([DrawerEasingStop(progress: 1, timeFraction: 0), DrawerEasingStop(progress: 1, timeFraction: 1)]),
            "linear(1, 1)")
    }

    func testThePrintedEasingOfTheCoreStaysWithinTheBoundInEveryRegime() throws {
        let motions = [
            DrawerSpringMotion(spring: .default),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.5, dampingFraction: 0.825)),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.4, dampingFraction: 1)),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.3, dampingFraction: 3), initialProgress: 0.4, initialVelocity: -6),
            DrawerSpringMotion(spring: DrawerSpring(duration: 0.35, bounce: 0.5), initialProgress: 1.2, initialVelocity: 9),
        ]
        for motion in motions {
            let settling = try DrawerLimits.settlingDuration(of: motion).get()
            let duration = DrawerLimits.easingDuration(settling: settling)
            let text = DrawerCSSEasing.linear(try XCTUnwrap(DrawerLinearEasing.stops(for: motion, duration: duration, maxError: DrawerLinearEasing.defaultMaxError)))
            let easing = try XCTUnwrap(ParsedLinearEasing(text), text)
            XCTAssertLessThanOrEqual(easing.worstDeviation(from: motion, duration: duration), 0.002, "\(motion)")
        }
    }

    func testTheUnderdampedLowerBoundNeverExceedsTheSettlingDuration() {
        for dampingFraction in [0.05, 0.2, 0.5, 0.825, 0.99] {
            for (progress, velocity) in [(0.0, 0.0), (0.3, 4.0), (1.1, -8.0), (-2.0, 30.0)] {
                let motion = DrawerSpringMotion(
                    spring: DrawerSpring(response: 0.45, dampingFraction: dampingFraction), initialProgress: progress, initialVelocity: velocity)
                let bound = DrawerLimits.underdampedSettlingLowerBound(motion)
                XCTAssertLessThanOrEqual(bound, motion.settlingDuration(), "\(motion)")
                XCTAssertGreaterThan(bound, motion.settlingDuration() - Double.pi / (motion.spring.angularFrequency * (1 - dampingFraction * dampingFraction).squareRoot()) - 1e-9)
            }
        }
    }

    func testTheLimitsAcceptTheDefaultSpringAndRefuseUnboundedOnes() {
        XCTAssertEqual(DrawerLimits.settlingDuration(of: DrawerSpringMotion(spring: .default)), .success(DrawerSpringMotion(spring: .default).settlingDuration()))
        XCTAssertEqual(DrawerLimits.settlingDuration(of: DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1e-300))), .failure(.settlesTooLate))
        // Settles at once, but turns faster than a millionth of its 1 ms easing can follow.
        XCTAssertEqual(
            DrawerMotionPlan.make(DrawerSpringMotion(spring: DrawerSpring(response: 1e-100, dampingFraction: 1e-98)), frameRate: 60),
            .failure(.tooManySamples(allowed: DrawerLimits.maxWork - 2)))
        XCTAssertEqual(DrawerLimits.settlingDuration(of: DrawerSpringMotion(spring: .default, initialVelocity: 1e300)), .failure(.nonFinite))
    }
}

import Foundation
import TrellisCore
import XCTest

final class DrawerKeyframeAndEasingTests: XCTestCase {
    /// The easing as the resolver fits it: over the settling duration, within the default tolerance.
    private func easingStops(_ motion: DrawerSpringMotion) -> [DrawerEasingStop] {
        DrawerLinearEasing.stops(for: motion, duration: motion.settlingDuration(), maxError: DrawerLinearEasing.defaultMaxError)!
    }

    private func interpolate(_ stops: [DrawerEasingStop], at fraction: Double) -> Double {
        let upper = stops.firstIndex { $0.timeFraction >= fraction } ?? stops.count - 1
        if upper == 0 { return stops[0].progress }
        let a = stops[upper - 1], b = stops[upper]
        return a.progress + (b.progress - a.progress) * (fraction - a.timeFraction) / (b.timeFraction - a.timeFraction)
    }

    private func parsedBack(_ stops: [DrawerEasingStop]) -> [DrawerEasingStop] {
        stops.map { DrawerEasingStop(progress: Double(String(format: "%.6f", $0.progress))!, timeFraction: Double(String(format: "%.4f", $0.timeFraction * 100))! / 100) }
    }

    private func worstDeviation(_ stops: [DrawerEasingStop], _ motion: DrawerSpringMotion, duration: Double) -> Double {
        let samples = 40_000
        return (0...samples).map { i -> Double in
            let fraction = Double(i) / Double(samples)
            return abs(interpolate(stops, at: fraction) - motion.progress(at: fraction * duration))
        }.max()!
    }

    func testKeyframesEndWithExactlyOneAtTheFirstFrameAtOrAfterSettling() {
        for frameRate in [60.0, 120.0, 24.0] {
            let motion = DrawerSpringMotion(spring: .default)
            let settling = motion.settlingDuration()
            let frames = motion.keyframes(frameRate: frameRate)
            XCTAssertEqual(frames.last!.progress, 1)
            XCTAssertGreaterThanOrEqual(frames.last!.t, settling)
            XCTAssertLessThan(frames[frames.count - 2].t, settling)
            for (i, frame) in frames.enumerated() {
                XCTAssertEqual(frame.t, Double(i) / frameRate)
                if i < frames.count - 1 { XCTAssertEqual(frame.progress, motion.progress(at: frame.t)) }
            }
        }
    }

    func testDefaultKeyframesAt60fpsRunThroughFrame46() {
        let frames = DrawerSpringMotion(spring: .default).keyframes(frameRate: 60)
        XCTAssertEqual(frames.count, 47)
        XCTAssertEqual(frames.first, DrawerKeyframe(t: 0, progress: 0))
    }

    func testKeyframesOfASettledMotionAreASingleFinalFrame() {
        XCTAssertEqual(DrawerSpringMotion(spring: .default, initialProgress: 1).keyframes(frameRate: 60), [DrawerKeyframe(t: 0, progress: 1)])
    }

    func testEasingStopsStayWithinTolerance() {
        let motions = [
            DrawerSpringMotion(spring: .default),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.5, dampingFraction: 0.825)),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 0.3), initialVelocity: 5),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1)),
            DrawerSpringMotion(spring: DrawerSpring(response: 0.4, dampingFraction: 2.5), initialProgress: 0.3, initialVelocity: -2),
            DrawerSpringMotion(spring: DrawerSpring(duration: 0.2, bounce: 0.4), initialProgress: 0.6, initialVelocity: 12),
        ]
        for motion in motions {
            let duration = motion.settlingDuration()
            let stops = easingStops(motion)
            XCTAssertEqual(stops.first!.progress, motion.initialProgress, accuracy: 5e-7)
            XCTAssertEqual(stops.first!.timeFraction, 0)
            XCTAssertEqual(stops.last, DrawerEasingStop(progress: 1, timeFraction: 1))
            XCTAssertTrue(zip(stops, stops.dropFirst()).allSatisfy { $0.timeFraction < $1.timeFraction })
            XCTAssertLessThanOrEqual(worstDeviation(stops, motion, duration: duration), DrawerLinearEasing.defaultMaxError, "\(motion)")
            XCTAssertLessThanOrEqual(worstDeviation(parsedBack(stops), motion, duration: duration), DrawerLinearEasing.defaultMaxError, "\(motion)")
        }
    }

    func testEasingIsSimplifiedFarBelowTheKeyframeCount() {
        let motion = DrawerSpringMotion(spring: .default)
        let stops = easingStops(motion)
        XCTAssertLessThan(stops.count, 25)
        XCTAssertLessThan(stops.count, motion.keyframes(frameRate: 60).count / 2)
    }

    func testTheDeviationCheckCatchesThe60fpsKeyframesAsAnEasing() {
        let motion = DrawerSpringMotion(spring: .default)
        let duration = motion.settlingDuration()
        let frames = motion.keyframes(frameRate: 60)
        let asStops = frames.map { DrawerEasingStop(progress: $0.progress, timeFraction: min(1, $0.t / duration)) }
        XCTAssertGreaterThan(worstDeviation(asStops, motion, duration: duration), DrawerLinearEasing.defaultMaxError)
    }

    func testStopsAreExactSixDecimalProgressesAndFourDecimalPercentages() {
        let stops = easingStops(DrawerSpringMotion(spring: DrawerSpring(response: 0.37, dampingFraction: 0.6), initialProgress: 0.123456789, initialVelocity: 3))
        for stop in stops {
            XCTAssertEqual(stop.progress, Double(String(format: "%.6f", stop.progress))!)
            XCTAssertEqual(stop.timeFraction * 100, Double(String(format: "%.4f", stop.timeFraction * 100))!, accuracy: 1e-12)
        }
    }

    func testASettledMotionHasAFlatEasing() {
        XCTAssertEqual(
            easingStops(DrawerSpringMotion(spring: .default, initialProgress: 1)),
            [DrawerEasingStop(progress: 1, timeFraction: 0), DrawerEasingStop(progress: 1, timeFraction: 1)]
        )
    }
}

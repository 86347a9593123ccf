import TrellisCore
import XCTest

final class DrawerSpringMotionTests: XCTestCase {
    static let dampingFractions = [0.05, 0.3, 0.825, 0.999999, 1.0, 1.000001, 1.5, 4.0]
    static let starts: [(progress: Double, velocity: Double)] = [(0, 0), (0, 3), (0, -7), (0.4, 2.5), (1.3, -4), (1, 0.8)]

    /// p′(t) as the central difference of p, the closed form production evaluates.
    private func slope(_ motion: DrawerSpringMotion, at t: Double, h: Double = 1e-6) -> Double {
        (motion.progress(at: t + h) - motion.progress(at: t - h)) / (2 * h)
    }

    func testInitialProgressAndVelocityHoldAtTimeZero() {
        for zeta in Self.dampingFractions {
            for start in Self.starts {
                let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: zeta), initialProgress: start.progress, initialVelocity: start.velocity)
                XCTAssertEqual(motion.progress(at: 0), start.progress, accuracy: 1e-12, "ζ=\(zeta) \(start)")
                XCTAssertEqual(slope(motion, at: 0), start.velocity, accuracy: 1e-6, "ζ=\(zeta) \(start)")
            }
        }
    }

    func testRestStartsAtZeroProgressAndZeroVelocity() {
        let motion = DrawerSpringMotion(spring: .default)
        XCTAssertEqual(motion.progress(at: 0), 0)
        XCTAssertEqual(slope(motion, at: 0), 0, accuracy: 1e-6)
    }

    func testProgressTendsToOne() {
        for zeta in Self.dampingFractions where zeta >= 0.3 {
            for start in Self.starts {
                let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: zeta), initialProgress: start.progress, initialVelocity: start.velocity)
                XCTAssertEqual(motion.progress(at: 30), 1, accuracy: 1e-9, "ζ=\(zeta) \(start)")
                XCTAssertEqual(slope(motion, at: 30), 0, accuracy: 1e-6, "ζ=\(zeta) \(start)")
            }
        }
    }

    func testUnderdampedOvershootsAndOverdampedDoesNotFromRest() {
        let times = stride(from: 0.0, through: 3, by: 0.001)
        XCTAssertGreaterThan(times.map { DrawerSpringMotion(spring: .default).progress(at: $0) }.max()!, 1.001)
        XCTAssertLessThanOrEqual(times.map { DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1.5)).progress(at: $0) }.max()!, 1)
        XCTAssertLessThanOrEqual(times.map { DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1)).progress(at: $0) }.max()!, 1)
    }

    func testClosedFormsAgreeWithRK4() {
        for zeta in Self.dampingFractions {
            let spring = DrawerSpring(response: 0.55, dampingFraction: zeta)
            for start in Self.starts {
                let motion = DrawerSpringMotion(spring: spring, initialProgress: start.progress, initialVelocity: start.velocity)
                let reference = SpringODE(spring).trajectory(progress: start.progress, velocity: start.velocity, step: 1e-4, duration: 3, every: 50)
                let worst = reference.map { sample in
                    abs(motion.progress(at: sample.t) - sample.p)
                }.max()!
                XCTAssertLessThan(worst, 1e-6, "ζ=\(zeta) \(start)")
            }
        }
    }

    func testClosedFormsAgreeWithRK4ForAStiffShortSpring() {
        let spring = DrawerSpring(duration: 0.12, bounce: -0.6)
        let motion = DrawerSpringMotion(spring: spring, initialProgress: 0.2, initialVelocity: -30)
        let reference = SpringODE(spring).trajectory(progress: 0.2, velocity: -30, step: 1e-5, duration: 1, every: 100)
        for sample in reference {
            XCTAssertEqual(motion.progress(at: sample.t), sample.p, accuracy: 1e-6)
        }
    }

    func testFromMapsPositionAndVelocityThroughTheTravel() {
        let opening = DrawerSpringMotion(spring: .default, fromX: -200, toX: 0, start: DrawerMotionStart(x: -100, velocity: 400))
        XCTAssertEqual(opening.initialProgress, 0.5)
        XCTAssertEqual(opening.initialVelocity, 2)
        let closing = DrawerSpringMotion(spring: .default, fromX: 0, toX: -244, start: DrawerMotionStart(x: -61, velocity: -488))
        XCTAssertEqual(closing.initialProgress, 0.25)
        XCTAssertEqual(closing.initialVelocity, 2)
        let rightSide = DrawerSpringMotion(spring: .default, fromX: 190, toX: 390, start: DrawerMotionStart(x: 400, velocity: -100))
        XCTAssertEqual(rightSide.initialProgress, 1.05, accuracy: 1e-12)
        XCTAssertEqual(rightSide.initialVelocity, -0.5)
        XCTAssertEqual(DrawerSpringMotion(spring: .default, fromX: -200, toX: 0, start: nil), DrawerSpringMotion(spring: .default))
    }
}

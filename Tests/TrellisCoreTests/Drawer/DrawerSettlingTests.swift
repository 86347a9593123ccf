import TrellisCore
import XCTest

final class DrawerSettlingTests: XCTestCase {
    private func assertSettles(_ motion: DrawerSpringMotion, file: StaticString = #filePath, line: UInt = #line) {
        let settling = motion.settlingDuration()
        XCTAssertTrue(settling.isFinite && settling >= 0, file: file, line: line)
        let horizon = settling + max(3, 3 * settling)
        var t = settling
        var worst = 0.0
        while t <= horizon {
            t += 1e-4
            worst = max(worst, abs(motion.progress(at: t) - 1))
        }
        XCTAssertLessThan(worst, DrawerSpringMotion.settlingTolerance, "after \(settling)", file: file, line: line)
        if settling > 0 {
            XCTAssertEqual(abs(motion.progress(at: settling) - 1), DrawerSpringMotion.settlingTolerance, accuracy: 1e-9, file: file, line: line)
            XCTAssertGreaterThanOrEqual(abs(motion.progress(at: settling - 1e-7) - 1), DrawerSpringMotion.settlingTolerance, file: file, line: line)
        }
    }

    /// Springs that ring almost forever end with a finite bound instead of hanging.
    func testExtremeSpringsReturnAFiniteBound() {
        for spring in [DrawerSpring(response: 0.55, dampingFraction: 1e-300), DrawerSpring(response: 1e-100, dampingFraction: 1e-98),
                       DrawerSpring(response: 1e6, dampingFraction: 1e-6)] {
            let duration = DrawerSpringMotion(spring: spring).settlingDuration()
            XCTAssertFalse(duration.isNaN)
            XCTAssertGreaterThan(duration, 0)
        }
    }

    func testDefaultSpringSettlesInAbout758ms() {
        let motion = DrawerSpringMotion(spring: .default)
        XCTAssertEqual(motion.settlingDuration(), 0.758, accuracy: 0.001)
        assertSettles(motion)
    }

    func testSettlingIsTheLastCrossingInEveryRegime() {
        let starts: [(Double, Double)] = [(0, 0), (0, 4), (0, -6), (0.5, 2), (1.2, -3), (1, 1.5), (-0.3, 0)]
        for zeta in [0.05, 0.2, 0.5, 0.825, 0.99, 0.999999, 1, 1.000001, 1.01, 1.5, 3, 12] {
            for (progress, velocity) in starts {
                assertSettles(DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: zeta), initialProgress: progress, initialVelocity: velocity))
            }
        }
    }

    func testWeaklyDampedSpringUsesItsLastCrossingNotItsFirst() {
        let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 0.1))
        let settling = motion.settlingDuration()
        let firstEntry = stride(from: 0.0, through: 5, by: 1e-4).first { abs(motion.progress(at: $0) - 1) < 0.001 }!
        XCTAssertGreaterThan(settling, firstEntry + 1)
        assertSettles(motion)
    }

    func testAtTargetAndAtRestSettlesImmediately() {
        XCTAssertEqual(DrawerSpringMotion(spring: .default, initialProgress: 1, initialVelocity: 0).settlingDuration(), 0)
        XCTAssertEqual(DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 2), fromX: 0, toX: -200, start: DrawerMotionStart(x: -200, velocity: 0)).settlingDuration(), 0)
    }

    func testStartingInsideTheBandThatItNeverLeavesSettlesImmediately() {
        XCTAssertEqual(DrawerSpringMotion(spring: .default, initialProgress: 0.9995).settlingDuration(), 0)
        XCTAssertEqual(DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1), initialProgress: 1.0008).settlingDuration(), 0)
    }

    func testAVelocityAtTheTargetLeavesTheBandAndComesBack() {
        let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.55, dampingFraction: 1.5), initialProgress: 1, initialVelocity: 0.5)
        XCTAssertGreaterThan(motion.settlingDuration(), 0.1)
        assertSettles(motion)
    }

    func testSettlingScalesWithResponse() {
        let base = DrawerSpringMotion(spring: DrawerSpring(response: 0.5, dampingFraction: 0.7)).settlingDuration()
        let doubled = DrawerSpringMotion(spring: DrawerSpring(response: 1.0, dampingFraction: 0.7)).settlingDuration()
        XCTAssertEqual(doubled, 2 * base, accuracy: 1e-9)
    }
}

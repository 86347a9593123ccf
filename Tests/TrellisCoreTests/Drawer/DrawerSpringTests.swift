import TrellisCore
import XCTest

final class DrawerSpringTests: XCTestCase {
    func testDefaultIsTheIOS13To16Spring() {
        XCTAssertEqual(DrawerSpring.default, DrawerSpring(response: 0.55, dampingFraction: 0.825))
    }

    func testStiffnessAndDampingOfTheDefault() {
        XCTAssertEqual(DrawerSpring.default.stiffness, 130.50717, accuracy: 1e-5)
        XCTAssertEqual(DrawerSpring.default.damping, 18.84956, accuracy: 1e-5)
    }

    func testStiffnessAndDampingFollowTheFormulas() {
        let spring = DrawerSpring(response: 0.3, dampingFraction: 1.7)
        XCTAssertEqual(spring.stiffness, (2 * Double.pi / 0.3) * (2 * Double.pi / 0.3), accuracy: 1e-9)
        XCTAssertEqual(spring.damping, 4 * Double.pi * 1.7 / 0.3, accuracy: 1e-9)
    }

    func testDurationAndBounceMapping() {
        XCTAssertEqual(DrawerSpring(duration: 0.5, bounce: 0.3), DrawerSpring(response: 0.5, dampingFraction: 1 - 0.3))
        XCTAssertEqual(DrawerSpring(duration: 0.4, bounce: 0), DrawerSpring(response: 0.4, dampingFraction: 1))
        XCTAssertEqual(DrawerSpring(duration: 0.8, bounce: -0.5), DrawerSpring(response: 0.8, dampingFraction: 2))
        XCTAssertEqual(DrawerSpring(duration: 1.2, bounce: -0.2).dampingFraction, 1.25, accuracy: 1e-12)
    }

    func testRegimes() {
        XCTAssertEqual(DrawerSpring.default.regime, .underdamped)
        XCTAssertEqual(DrawerSpring(response: 1, dampingFraction: 1).regime, .criticallyDamped)
        XCTAssertEqual(DrawerSpring(response: 1, dampingFraction: 1.0000001).regime, .overdamped)
    }
}

import Foundation
import XCTest

final class DrawerExtremeInputTests: XCTestCase {
    func testExtremeSpringsAndStartsAreAnsweredOrRefusedWithoutStalling() {
        let responses = ["1e-300", "1e-150", "1e-6", "0.55", "1e3", "1e300"]
        let dampingFractions = ["1e-300", "1e-9", "0.5", "0.9999999999999999", "1", "1.0000000000000002", "3", "1e9", "1e300"]
        let starts = ["", #", "from": {"x": -1e300, "velocity": 0}"#, #", "from": {"x": 5e5, "velocity": -1e6}"#,
                      #", "from": {"x": -100, "velocity": 1e300}"#, #", "from": {"x": 1e-300, "velocity": -1e-300}"#]
        let started = Date()
        var answered = 0
        for response in responses {
            for dampingFraction in dampingFractions {
                for start in starts {
                    let body = #"{"action": "open", "edge": "trailing", "container": {"width": 390, "height": 844}, "spring": {"response": \#(response), "dampingFraction": \#(dampingFraction)}\#(start)}"#
                    let reply = postDrawer(body)
                    XCTAssertTrue([200, 422].contains(reply.status), body + " → " + reply.text)
                    guard reply.status == 200 else { continue }
                    answered += 1
                    let css = object(object(exactJSON(reply)["transition"])["css"])
                    XCTAssertNotNil(ParsedLinearEasing(css["easing"] as? String ?? ""), body)
                    XCTAssertNotNil(cssSeconds(css["duration"] as? String), body)
                }
            }
        }
        XCTAssertGreaterThan(answered, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }
}

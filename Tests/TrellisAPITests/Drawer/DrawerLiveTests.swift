import Foundation
import TrellisCore
import XCTest
import TrellisTestSupport

final class DrawerLiveTests: XCTestCase {
    func testTheSeedExampleThroughTheRealServer() throws {
        let server = try LiveServer()
        let response = try server.request("POST", "/v1/drawer/state", json: drawerSeedRequest)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(exactJSON(response)["isPresented"] as? Bool, true)
        let transition = object(exactJSON(response)["transition"])
        XCTAssertEqual(object(transition["css"])["duration"] as? String, "758ms")
        XCTAssertEqual(number((transition["keyframes"] as? [[String: Any]])?.last?["progress"]), 1)
        XCTAssertEqual(response.body, postDrawer(drawerSeedRequest).body)

        let refused = try server.request("POST", "/v1/drawer/state", json: #"{"container": {"width": 390}}"#)
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(problemPointers(refused), ["/container/height"])
    }

    /// Springs SwiftUI accepts, through the real server: an overdamped one that settles in about 6 s at 24 frames/s (once
    /// refused for the easing samples its duration cost), and the corners of response up to 1.5 s and dampingFraction
    /// 0.2 to 2.5 at 240 frames/s, in both forms of the spring; each is answered with every keyframe it asks for and an
    /// easing within 0.002 of p(t).
    func testEverySpringInSwiftUIsRangeIsAnsweredAtAnyFrameRate() throws {
        let server = try LiveServer()
        let springs: [(spring: String, frameRate: Double, motion: DrawerSpring)] = [
            (#"{"response": 1.0, "dampingFraction": 2.5}"#, 24, DrawerSpring(response: 1.0, dampingFraction: 2.5)),
            (#"{"response": 1.5, "dampingFraction": 2.5}"#, 240, DrawerSpring(response: 1.5, dampingFraction: 2.5)),
            (#"{"response": 1.5, "dampingFraction": 0.2}"#, 240, DrawerSpring(response: 1.5, dampingFraction: 0.2)),
            (#"{"response": 0.01, "dampingFraction": 2.5}"#, 240, DrawerSpring(response: 0.01, dampingFraction: 2.5)),
            (#"{"response": 0.01, "dampingFraction": 0.2}"#, 240, DrawerSpring(response: 0.01, dampingFraction: 0.2)),
            (#"{"duration": 1.5, "bounce": 0.8}"#, 240, DrawerSpring(duration: 1.5, bounce: 0.8)),
            (#"{"duration": 1.5, "bounce": -0.6}"#, 240, DrawerSpring(duration: 1.5, bounce: -0.6)),
        ]
        for (spring, frameRate, expected) in springs {
            let body = #"{"action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": \#(frameRate), "spring": \#(spring)}"#
            let response = try server.request("POST", "/v1/drawer/state", json: body)
            XCTAssertEqual(response.status, 200, "\(spring) at \(frameRate): " + String(response.text.prefix(400)))
            guard response.status == 200 else { continue }
            let transition = object(exactJSON(response)["transition"])
            let motion = DrawerSpringMotion(spring: expected)
            let keyframes = transition["keyframes"] as? [[String: Any]] ?? []
            XCTAssertEqual(keyframes.count, motion.keyframes(frameRate: frameRate).count, spring)
            XCTAssertEqual(number(keyframes.last?["progress"]), 1, spring)
            let css = object(transition["css"])
            let duration = try XCTUnwrap(cssSeconds(css["duration"] as? String), spring)
            let easing = try XCTUnwrap(ParsedLinearEasing(css["easing"] as? String ?? ""), spring)
            XCTAssertLessThanOrEqual(easing.worstDeviation(from: motion, duration: duration), 0.002, spring)
        }
    }
}

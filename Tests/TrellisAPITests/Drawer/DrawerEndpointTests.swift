import Foundation
import TrellisAPI
import TrellisCore
import XCTest

final class DrawerEndpointTests: XCTestCase {
    private let phone = #""container": {"width": 390, "height": 844}, "safeAreaInsets": {"top": 47, "bottom": 34}"#

    func testTheSeedExampleOpensTheDrawerWithTheWholeResponse() throws {
        let response = postDrawer(drawerSeedRequest)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let body = exactJSON(response)
        XCTAssertEqual(Set(body.keys), ["isPresented", "changed", "panel", "mask", "transition"])
        XCTAssertEqual(body["isPresented"] as? Bool, true)
        XCTAssertEqual(body["changed"] as? Bool, true)

        let panel = object(body["panel"])
        XCTAssertEqual(Set(panel.keys), ["frame", "contentFrame", "visible"])
        XCTAssertEqual(frame(panel["frame"]), [0, 0, 200, 844])
        XCTAssertEqual(frame(panel["contentFrame"]), [0, 47, 200, 763])
        XCTAssertEqual(panel["visible"] as? Bool, true)
        let mask = object(body["mask"])
        XCTAssertEqual(Set(mask.keys), ["frame", "opacity", "visible"])
        XCTAssertEqual(frame(mask["frame"]), [0, 0, 390, 844])
        XCTAssertEqual(number(mask["opacity"]), 0.2)
        XCTAssertEqual(mask["visible"] as? Bool, true)

        let transition = object(body["transition"])
        XCTAssertEqual(Set(transition.keys), ["panel", "mask", "spring", "keyframes", "css"])
        XCTAssertEqual(object(transition["panel"]).mapValues { number($0)! }, ["fromX": -200, "toX": 0])
        XCTAssertEqual(object(transition["mask"]).mapValues { number($0)! }, ["fromOpacity": 0, "toOpacity": 0.2])

        let motion = DrawerSpringMotion(spring: .default)
        let settling = motion.settlingDuration()
        let spring = object(transition["spring"]).mapValues { number($0)! }
        XCTAssertEqual(spring, [
            "response": 0.55, "dampingFraction": 0.825, "stiffness": DrawerSpring.default.stiffness,
            "damping": DrawerSpring.default.damping, "settlingDuration": settling,
        ])
        XCTAssertEqual(settling, 0.758, accuracy: 0.001)

        let keyframes = try XCTUnwrap(transition["keyframes"] as? [[String: Any]])
        XCTAssertEqual(keyframes.count, 47)
        for (i, keyframe) in keyframes.enumerated() {
            XCTAssertEqual(Set(keyframe.keys), ["t", "progress"])
            let t = try XCTUnwrap(number(keyframe["t"]))
            XCTAssertEqual(t, Double(i) / 60)
            XCTAssertEqual(number(keyframe["progress"]), i == keyframes.count - 1 ? 1 : motion.progress(at: t))
        }
        XCTAssertGreaterThanOrEqual(number(keyframes.last!["t"])!, settling)
        XCTAssertLessThan(number(keyframes[keyframes.count - 2]["t"])!, settling)

        let css = object(transition["css"])
        XCTAssertEqual(Set(css.keys), ["duration", "easing"])
        XCTAssertEqual(css["duration"] as? String, "758ms")
        let easingText = try XCTUnwrap(css["easing"] as? String)
        let easing = try XCTUnwrap(ParsedLinearEasing(easingText), easingText)
        XCTAssertEqual(easing.stops.first?.progress, 0)
        XCTAssertEqual(easing.stops.last?.progress, 1)
        XCTAssertLessThan(easing.stops.count, 25)
        XCTAssertLessThanOrEqual(easing.worstDeviation(from: motion, duration: 0.758), 0.002)
    }

    func testEveryActionFromBothStates() {
        let expected: [(Bool, String?, Bool)] = [
            (false, nil, false), (false, "toggle", true), (false, "open", true), (false, "close", false), (false, "tapMask", false),
            (true, nil, true), (true, "toggle", false), (true, "open", true), (true, "close", false), (true, "tapMask", false),
        ]
        for (isPresented, action, next) in expected {
            let actionMember = action.map { #", "action": "\#($0)""# } ?? ""
            let response = postDrawer(#"{"isPresented": \#(isPresented)\#(actionMember), \#(phone)}"#)
            let label = "\(isPresented) \(action ?? "none")"
            XCTAssertEqual(response.status, 200, label)
            let body = exactJSON(response)
            XCTAssertEqual(body["isPresented"] as? Bool, next, label)
            XCTAssertEqual(body["changed"] as? Bool, next != isPresented, label)
            XCTAssertEqual(frame(object(body["panel"])["frame"]), [next ? 0 : -200, 0, 200, 844], label)
            XCTAssertEqual(object(body["panel"])["visible"] as? Bool, next, label)
            XCTAssertEqual(number(object(body["mask"])["opacity"]), next ? 0.2 : 0, label)
            XCTAssertEqual(object(body["mask"])["visible"] as? Bool, next, label)
            if next == isPresented {
                XCTAssertNil(body["transition"], label)
            } else {
                let transition = object(body["transition"])
                XCTAssertEqual(number(object(transition["panel"])["fromX"]), isPresented ? 0 : -200, label)
                XCTAssertEqual(number(object(transition["panel"])["toX"]), next ? 0 : -200, label)
                XCTAssertEqual(number(object(transition["mask"])["fromOpacity"]), isPresented ? 0.2 : 0, label)
                XCTAssertEqual(number(object(transition["mask"])["toOpacity"]), next ? 0.2 : 0, label)
            }
        }
    }

    func testOnlyTheContainerIsRequiredAndNullMeansAbsent() {
        let response = postDrawer(#"{"container": {"width": 390, "height": 844}, "action": "open", "spring": null, "from": null, "edge": null}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let body = exactJSON(response)
        XCTAssertEqual(frame(object(body["panel"])["frame"]), [0, 0, 200, 844])
        XCTAssertEqual(frame(object(body["panel"])["contentFrame"]), [0, 0, 200, 844])
        let spring = object(object(body["transition"])["spring"])
        XCTAssertEqual(number(spring["response"]), 0.55)
        XCTAssertEqual(number(spring["dampingFraction"]), 0.825)
        XCTAssertEqual((object(body["transition"])["keyframes"] as? [Any])?.count, 47)
    }

    func testTrailingAndRightToLeftPutThePanelOnTheRightWithItsEdgeInset() {
        let insets = #""safeAreaInsets": {"top": 47, "leading": 10, "bottom": 34, "trailing": 20}"#
        let cases: [(String, String, [Double], [Double], Double)] = [
            // edge, direction, panel frame, content frame, closed x
            ("trailing", "ltr", [170, 0, 220, 844], [170, 47, 200, 763], 390),
            ("leading", "rtl", [180, 0, 210, 844], [180, 47, 200, 763], 390),
            ("trailing", "rtl", [0, 0, 220, 844], [20, 47, 200, 763], -220),
            ("leading", "ltr", [0, 0, 210, 844], [10, 47, 200, 763], -210),
        ]
        for (edge, direction, panel, content, closedX) in cases {
            let response = postDrawer(
                #"{"action": "open", "container": {"width": 390, "height": 844}, "edge": "\#(edge)", "layoutDirection": "\#(direction)", \#(insets)}"#)
            XCTAssertEqual(response.status, 200, response.text)
            XCTAssertEqual(frame(object(exactJSON(response)["panel"])["frame"]), panel, "\(edge) \(direction)")
            XCTAssertEqual(frame(object(exactJSON(response)["panel"])["contentFrame"]), content, "\(edge) \(direction)")
            let travel = object(object(exactJSON(response)["transition"])["panel"])
            XCTAssertEqual(number(travel["fromX"]), closedX, "\(edge) \(direction)")
            XCTAssertEqual(number(travel["toX"]), panel[0], "\(edge) \(direction)")
        }
    }

    func testTheDurationBounceFormMapsToResponseAndDampingFraction() {
        let cases: [(String, Double, Double)] = [
            (#"{"duration": 0.5, "bounce": 0.3}"#, 0.5, 0.7),
            (#"{"duration": 0.4, "bounce": 0}"#, 0.4, 1),
            (#"{"duration": 0.6, "bounce": -0.5}"#, 0.6, 2),
        ]
        for (spring, response, dampingFraction) in cases {
            let reply = postDrawer(#"{"action": "toggle", \#(phone), "spring": \#(spring)}"#)
            XCTAssertEqual(reply.status, 200, reply.text)
            let transition = object(exactJSON(reply)["transition"])
            let written = object(transition["spring"])
            XCTAssertEqual(number(written["response"]), response)
            XCTAssertEqual(number(written["dampingFraction"])!, dampingFraction, accuracy: 1e-15)
            let motion = DrawerSpringMotion(spring: DrawerSpring(response: response, dampingFraction: number(written["dampingFraction"])!))
            XCTAssertEqual(number(written["settlingDuration"]), motion.settlingDuration())
            assertEasing(transition, matches: motion, spring)
        }
    }

    func testTheResponseFormWorksInEveryDampingRegime() {
        for dampingFraction in [0.2, 0.825, 1, 1.5, 3.5] {
            let reply = postDrawer(#"{"action": "open", \#(phone), "frameRate": 120, "spring": {"response": 0.4, "dampingFraction": \#(dampingFraction)}}"#)
            XCTAssertEqual(reply.status, 200, reply.text)
            let transition = object(exactJSON(reply)["transition"])
            let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.4, dampingFraction: dampingFraction))
            let spring = object(transition["spring"])
            XCTAssertEqual(number(spring["stiffness"]), motion.spring.stiffness)
            XCTAssertEqual(number(spring["damping"]), motion.spring.damping)
            XCTAssertEqual(number(spring["settlingDuration"]), motion.settlingDuration())
            let keyframes = transition["keyframes"] as? [[String: Any]] ?? []
            XCTAssertEqual(keyframes.count, motion.keyframes(frameRate: 120).count)
            XCTAssertEqual(number(keyframes.last?["progress"]), 1)
            assertEasing(transition, matches: motion, "dampingFraction \(dampingFraction)")
        }
    }

    func testFromStartsAtTheGivenPositionAndVelocity() throws {
        let reply = postDrawer(
            #"{"isPresented": true, "action": "tapMask", \#(phone), "frameRate": 120, "from": {"x": -50, "velocity": -1000}}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        let transition = object(exactJSON(reply)["transition"])
        XCTAssertEqual(object(transition["panel"]).mapValues { number($0)! }, ["fromX": 0, "toX": -200])
        let motion = DrawerSpringMotion(spring: .default, initialProgress: 0.25, initialVelocity: 5)
        XCTAssertEqual(number(object(transition["spring"])["settlingDuration"]), motion.settlingDuration())
        let keyframes = try XCTUnwrap(transition["keyframes"] as? [[String: Any]])
        XCTAssertEqual(number(keyframes[0]["progress"]), 0.25)
        XCTAssertEqual(number(keyframes[1]["t"]), 1.0 / 120)
        XCTAssertEqual(number(keyframes[1]["progress"]), motion.progress(at: 1.0 / 120))
        XCTAssertEqual(keyframes.count, motion.keyframes(frameRate: 120).count)
        let css = object(transition["css"])
        XCTAssertTrue((css["easing"] as? String)?.hasPrefix("linear(0.25, ") ?? false)
        assertEasing(transition, matches: motion, "from")
    }

    func testFromOvershootingTheTargetBeforeTheOpenPosition() {
        let reply = postDrawer(#"{"action": "open", \#(phone), "from": {"x": -300, "velocity": 0}}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        let transition = object(exactJSON(reply)["transition"])
        let motion = DrawerSpringMotion(spring: .default, initialProgress: -0.5, initialVelocity: 0)
        XCTAssertEqual(number((transition["keyframes"] as? [[String: Any]])?.first?["progress"]), -0.5)
        XCTAssertTrue((object(transition["css"])["easing"] as? String)?.hasPrefix("linear(-0.5, ") ?? false)
        assertEasing(transition, matches: motion, "from behind")
    }

    func testFromWithAnActionThatChangesNothingIsIgnored() {
        let reply = postDrawer(#"{"isPresented": true, "action": "open", \#(phone), "from": {"x": -50, "velocity": 300}}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(exactJSON(reply)["changed"] as? Bool, false)
        XCTAssertNil(exactJSON(reply)["transition"])
    }

    func testAStartAlreadyAtRestOnTheTargetHasAZeroTransition() {
        let reply = postDrawer(#"{"action": "open", \#(phone), "from": {"x": 0, "velocity": 0}}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        let transition = object(exactJSON(reply)["transition"])
        XCTAssertEqual(number(object(transition["spring"])["settlingDuration"]), 0)
        XCTAssertEqual((transition["keyframes"] as? [[String: Any]])?.map { $0.mapValues { number($0)! } }, [["t": 0, "progress": 1]])
        XCTAssertEqual(object(transition["css"])["duration"] as? String, "0ms")
        XCTAssertEqual(object(transition["css"])["easing"] as? String, "linear(1, 1)")
    }

    func testTheSlowestSpringsWithinTheWorkLimitAreAnswered() {
        // Among the slowest the limit admits: 8 to 24 s to settle, for about 2,400 keyframes and samples.
        for (frameRate, response, dampingFraction) in [(240, 1.5, 3.1), (240, 1.5, 0.19), (60, 1.5, 0.07)] {
            let reply = postDrawer(
                #"{"action": "open", \#(phone), "frameRate": \#(frameRate), "spring": {"response": \#(response), "dampingFraction": \#(dampingFraction)}}"#)
            XCTAssertEqual(reply.status, 200, reply.text)
            let transition = object(exactJSON(reply)["transition"])
            let motion = DrawerSpringMotion(spring: DrawerSpring(response: response, dampingFraction: dampingFraction))
            XCTAssertEqual(number(object(transition["spring"])["settlingDuration"]), motion.settlingDuration())
            XCTAssertGreaterThan(motion.settlingDuration(), 8)
            XCTAssertEqual((transition["keyframes"] as? [[String: Any]])?.count, motion.keyframes(frameRate: Double(frameRate)).count)
            assertEasing(transition, matches: motion, "slow at \(frameRate)")
        }
    }

    func testAWeakSpringPastTheWorkLimitIsRefusedHoweverLargeItsRequest() {
        for padding in ["", #", "note": "\#(String(repeating: "x", count: 1_200))""#] {
            let reply = postDrawer(
                #"{"action": "open", \#(phone), "frameRate": 240, "spring": {"response": 0.3, "dampingFraction": 0.02}\#(padding)}"#)
            XCTAssertEqual(reply.status, 422, reply.text)
            let errors = exactJSON(reply)["errors"] as? [[String: Any]] ?? []
            XCTAssertEqual(errors.map { $0["pointer"] as? String }, ["/spring"])
            let motion = DrawerSpringMotion(spring: DrawerSpring(response: 0.3, dampingFraction: 0.02))
            let keyframes = DrawerLimits.keyframeCount(frameRate: 240, settling: motion.settlingDuration())
            XCTAssertGreaterThan(keyframes, DrawerLimits.maxWork)
            XCTAssertTrue(
                reply.text.contains("needs \(keyframes) keyframes; a request may ask for at most 2500 keyframes and easing samples together"),
                reply.text)
        }
    }

    /// The CSS pair parses back, lasts the settling duration rounded up to whole ms, and stays within 0.002 of p(t).
    private func assertEasing(_ transition: [String: Any], matches motion: DrawerSpringMotion, _ label: String, line: UInt = #line) {
        let css = object(transition["css"])
        guard let duration = cssSeconds(css["duration"] as? String),
              let easing = ParsedLinearEasing(css["easing"] as? String ?? "") else {
            return XCTFail("unreadable css \(css) (\(label))", line: line)
        }
        let settling = motion.settlingDuration()
        XCTAssertEqual(duration, (settling * 1000).rounded(.up) / 1000, label, line: line)
        XCTAssertEqual(easing.stops.last?.progress, 1, label, line: line)
        XCTAssertEqual(easing.stops.first?.progress ?? .nan, motion.initialProgress, accuracy: 5e-7, label, line: line)
        XCTAssertTrue(zip(easing.stops, easing.stops.dropFirst()).allSatisfy { $0.fraction < $1.fraction }, label, line: line)
        XCTAssertLessThanOrEqual(easing.worstDeviation(from: motion, duration: duration), 0.002, label, line: line)
    }
}

import Foundation
import TrellisAPI
import TrellisJSON
import XCTest

final class DrawerValidationTests: XCTestCase {
    private let container = #""container": {"width": 390, "height": 844}"#

    private func assertProblems(_ body: String, _ pointers: [String], _ detailFragment: String? = nil, line: UInt = #line) {
        let response = postDrawer(body)
        XCTAssertEqual(response.status, 422, response.text, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", line: line)
        XCTAssertEqual(problemPointers(response), pointers, response.text, line: line)
        if let detailFragment {
            let details = (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String }
            XCTAssertTrue(details.contains { $0.contains(detailFragment) }, "\(details) lacks \(detailFragment)", line: line)
        }
    }

    func testTheBodyMustBeAnObjectWithAContainer() {
        assertProblems("[]", [""], "must be an object")
        assertProblems("{}", ["/container"], "is required")
        assertProblems(#"{"container": 3}"#, ["/container"], "must be an object")
        assertProblems(#"{"container": {}}"#, ["/container/width", "/container/height"], "is required")
        assertProblems(#"{"container": {"width": -1, "height": "tall"}}"#, ["/container/width", "/container/height"])
        assertProblems(#"{"container": null}"#, ["/container"], "must be an object")
    }

    func testWrongTypesAndEnumerations() {
        assertProblems(#"{\#(container), "isPresented": "yes"}"#, ["/isPresented"], "true or false")
        assertProblems(#"{\#(container), "action": "flip"}"#, ["/action"], #""toggle", "open", "close", "tapMask""#)
        assertProblems(#"{\#(container), "action": 1}"#, ["/action"])
        assertProblems(#"{\#(container), "edge": "top"}"#, ["/edge"], #""leading", "trailing""#)
        assertProblems(#"{\#(container), "layoutDirection": "up"}"#, ["/layoutDirection"], #""ltr", "rtl""#)
        assertProblems(#"{\#(container), "safeAreaInsets": [0, 0]}"#, ["/safeAreaInsets"], "must be an object")
        assertProblems(#"{\#(container), "spring": "bouncy"}"#, ["/spring"], "must be an object")
        assertProblems(#"{\#(container), "action": "open", "from": 12}"#, ["/from"], "must be an object")
    }

    func testOutOfRangeNumbers() {
        assertProblems(#"{\#(container), "drawerWidth": 0}"#, ["/drawerWidth"], "> 0")
        assertProblems(#"{\#(container), "drawerWidth": "200"}"#, ["/drawerWidth"], "must be a number")
        assertProblems(
            #"{\#(container), "safeAreaInsets": {"top": -1, "leading": -2, "bottom": "x", "trailing": -0.5}}"#,
            ["/safeAreaInsets/top", "/safeAreaInsets/leading", "/safeAreaInsets/bottom", "/safeAreaInsets/trailing"])
        assertProblems(#"{\#(container), "maskOpacity": 1.01}"#, ["/maskOpacity"], "[0, 1]")
        assertProblems(#"{\#(container), "maskOpacity": -0.1}"#, ["/maskOpacity"])
        assertProblems(#"{\#(container), "frameRate": 0}"#, ["/frameRate"], "[1, 240]")
        assertProblems(#"{\#(container), "frameRate": 241}"#, ["/frameRate"])
    }

    func testTheSpringIsOneFormWithBothMembersInRange() {
        assertProblems(#"{\#(container), "spring": {"response": 0.5, "dampingFraction": 0.8, "duration": 0.5}}"#, ["/spring"], "not both")
        assertProblems(
            #"{\#(container), "spring": {"response": 0, "bounce": 1}}"#, ["/spring", "/spring/response", "/spring/bounce"], "not both")
        assertProblems(#"{\#(container), "spring": {}}"#, ["/spring"], "either {response, dampingFraction} or {duration, bounce}")
        assertProblems(#"{\#(container), "spring": {"response": 0.5}}"#, ["/spring/dampingFraction"], "is required")
        assertProblems(#"{\#(container), "spring": {"bounce": 0.2}}"#, ["/spring/duration"], "is required")
        assertProblems(#"{\#(container), "spring": {"response": 0, "dampingFraction": -1}}"#, ["/spring/response", "/spring/dampingFraction"], "> 0")
        assertProblems(#"{\#(container), "spring": {"duration": -0.5, "bounce": 0}}"#, ["/spring/duration"], "> 0")
        assertProblems(#"{\#(container), "spring": {"duration": 0.5, "bounce": 1}}"#, ["/spring/bounce"], "(-1, 1)")
        assertProblems(#"{\#(container), "spring": {"duration": 0.5, "bounce": -1}}"#, ["/spring/bounce"], "(-1, 1)")
        assertProblems(#"{\#(container), "spring": {"response": "fast", "dampingFraction": true}}"#, ["/spring/response", "/spring/dampingFraction"])
    }

    func testFromNeedsFiniteMembersAndAnAction() {
        assertProblems(#"{\#(container), "action": "open", "from": {}}"#, ["/from/x", "/from/velocity"], "is required")
        assertProblems(#"{\#(container), "action": "open", "from": {"x": "left", "velocity": null}}"#, ["/from/x", "/from/velocity"], "must be a number")
        assertProblems(#"{\#(container), "from": {"x": -50, "velocity": 0}}"#, ["/from"], "only used with an action")
    }

    func testEveryProblemIsReportedAtOnce() {
        assertProblems(
            #"{"isPresented": 1, "action": "x", "container": {"width": -1}, "drawerWidth": -5, "edge": 0, "layoutDirection": "ttb", "safeAreaInsets": {"top": -1}, "maskOpacity": 2, "spring": {"response": 0, "duration": 0}, "frameRate": 1000, "from": {"x": true}}"#,
            ["/isPresented", "/action", "/container/width", "/container/height", "/drawerWidth", "/edge", "/layoutDirection",
             "/safeAreaInsets/top", "/maskOpacity", "/spring", "/spring/response", "/spring/duration", "/frameRate",
             "/from/x", "/from/velocity"])
    }

    func testNumbersTooLargeForADoubleAreNotJSONTheServiceReads() {
        let response = postDrawer(#"{"container": {"width": 1e400, "height": 844}}"#)
        XCTAssertEqual(response.status, 400, response.text)
    }

    func testALimitOnSettlingIsBlamedOnTheSpring() {
        assertProblems(#"{\#(container), "action": "open", "spring": {"response": 0.55, "dampingFraction": 0.001}}"#, ["/spring"], "within 60 s")
        assertProblems(#"{\#(container), "action": "open", "spring": {"response": 200, "dampingFraction": 1}}"#, ["/spring"], "within 60 s")
        assertProblems(#"{\#(container), "action": "open", "spring": {"response": 0.5, "dampingFraction": 1e300}}"#, ["/spring"], "within 60 s")
        assertProblems(#"{\#(container), "action": "open", "spring": {"response": 0.5, "dampingFraction": 1e-300}}"#, ["/spring"], "within 60 s")
        assertProblems(#"{\#(container), "action": "open", "spring": {"duration": 0.5, "bounce": 0.9999}}"#, ["/spring"], "within 60 s")
    }

    func testALimitOnEasingSamplesIsBlamedOnTheSpring() {
        // Rings 11,000 times in 55 s: its easing would need about 700,000 samples.
        assertProblems(
            #"{\#(container), "action": "open", "frameRate": 1, "spring": {"response": 0.005, "dampingFraction": 0.0001}}"#, ["/spring"],
            "changes too fast or too often for a CSS easing within 0.002 of it: that would need more than 2444 samples")
        assertProblems(
            #"{\#(container), "action": "open", "spring": {"response": 1e-100, "dampingFraction": 1e-98}}"#, ["/spring"],
            "that would need more than 2498 samples (what its keyframes at this frameRate leave of the 2500")
    }

    /// Found by the fuzzer's cost check: 144 bytes asked for an easing sampled 1,000,000 times (0.15 s of
    /// CPU in a release build); sampling stops at what the request may ask for.
    func testAFastStartCannotAskForAMillionSamples() {
        assertProblems(
            #"{"isPresented": true, "action": "tapMask", "container": {"width": 80, "height": 844}, "from": {"x": -9, "velocity": 909223372.5}}"#,
            ["/from"], "changes too fast or too often for a CSS easing")
    }

    func testAnUnrepresentableSpringIsRefused() {
        assertProblems(#"{\#(container), "action": "open", "spring": {"response": 1e-200, "dampingFraction": 0.8}}"#, ["/spring"], "too large to represent")
    }

    func testALimitCausedByFromIsBlamedOnFrom() {
        assertProblems(#"{\#(container), "action": "open", "from": {"x": 0, "velocity": 1e300}}"#, ["/from"], "too fast")
        assertProblems(
            #"{\#(container), "action": "open", "spring": {"response": 10, "dampingFraction": 1}, "from": {"x": -2e14, "velocity": 0}}"#,
            ["/from"], "within 60 s")
        assertProblems(#"{\#(container), "action": "open", "from": {"x": -1e300, "velocity": 0}}"#, ["/from"], "too far")
        assertProblems(#"{\#(container), "action": "open", "from": {"x": 0, "velocity": 2e9}}"#, ["/from"], "changes too fast or too often")
        assertProblems(
            #"{\#(container), "action": "open", "drawerWidth": 1e-300, "from": {"x": 1e300, "velocity": 0}}"#, ["/from"], "too far")
    }

    func testAStateThatDoesNotChangeIsNotHeldToTheTransitionLimits() {
        let response = postDrawer(#"{\#(container), "isPresented": true, "action": "open", "spring": {"response": 0.55, "dampingFraction": 0.001}}"#)
        XCTAssertEqual(response.status, 200, response.text)
    }

    func testGeometryThatOverflowsIsRefused() {
        assertProblems(
            #"{\#(container), "drawerWidth": 1.7e308, "edge": "trailing", "safeAreaInsets": {"trailing": 1.7e308}}"#,
            ["/drawerWidth"], "finite")
        assertProblems(
            #"{"container": {"width": 1e300, "height": 1}, "drawerWidth": 1, "edge": "trailing", "action": "open"}"#,
            ["/container/width"], "travel")
    }
}

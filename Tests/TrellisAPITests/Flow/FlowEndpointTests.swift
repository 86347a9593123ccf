import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// POST /v1/flow/layout through the router: whole response bodies.
final class FlowEndpointTests: XCTestCase {
    private let service = TrellisService()

    private func layout(_ json: String) -> TestResponse {
        call(service, "POST", "/v1/flow/layout", json: json)
    }

    func testSeedExample() {
        let response = layout(FlowSeedExample.request)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.text, FlowSeedExample.response)
    }

    /// String and integer ids come back exactly as sent; no id (or null) means no `id` member.
    func testIDsEchoedOnlyWhenGiven() {
        let response = layout(#"""
            {"containerWidth":100,"items":[
              {"width":10,"height":5},{"id":7,"width":10,"height":5},{"id":"tag \"7\" é","width":10,"height":5},
              {"id":null,"width":10,"height":5},{"id":-9007199254740992,"width":10,"height":5},{"id":"","width":10,"height":5}]}
            """#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"items":["#
            + #"{"index":0,"row":0,"x":0,"y":0,"width":10,"height":5},"#
            + #"{"id":7,"index":1,"row":0,"x":10,"y":0,"width":10,"height":5},"#
            + #"{"id":"tag \"7\" é","index":2,"row":0,"x":20,"y":0,"width":10,"height":5},"#
            + #"{"index":3,"row":0,"x":30,"y":0,"width":10,"height":5},"#
            + #"{"id":-9007199254740992,"index":4,"row":0,"x":40,"y":0,"width":10,"height":5},"#
            + #"{"id":"","index":5,"row":0,"x":50,"y":0,"width":10,"height":5}],"#
            + #""rows":[{"y":0,"height":5,"width":60,"start":0,"count":6}],"size":{"width":100,"height":5},"hiddenCount":0}"#)
    }

    func testNoIDsAndNoItems() {
        let response = layout(#"{"containerWidth":0,"items":[]}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"items":[],"rows":[],"size":{"width":0,"height":0},"hiddenCount":0}"#)
    }

    /// Seven 30 × 10 items, gap 5, in 100: rows of 3, 3, 1; the 20 × 16 chip needs 25, so item 5 leaves row 1.
    func testMaxRowsWithChip() {
        let items = Array(repeating: #"{"width":30,"height":10}"#, count: 7).joined(separator: ",")
        let response = layout(#"""
            {"containerWidth":100,"columnGap":5,"maxRows":2,"overflowIndicator":{"width":20,"height":16},"items":[\#(items)]}
            """#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"items":["#
            + #"{"index":0,"row":0,"x":0,"y":0,"width":30,"height":10},"#
            + #"{"index":1,"row":0,"x":35,"y":0,"width":30,"height":10},"#
            + #"{"index":2,"row":0,"x":70,"y":0,"width":30,"height":10},"#
            + #"{"index":3,"row":1,"x":0,"y":10,"width":30,"height":10},"#
            + #"{"index":4,"row":1,"x":35,"y":10,"width":30,"height":10}],"#
            + #""rows":[{"y":0,"height":10,"width":100,"start":0,"count":3},"#
            + #"{"y":10,"height":16,"width":90,"start":3,"count":2}],"#
            + #""size":{"width":100,"height":26},"hiddenCount":2,"#
            + #""overflowIndicator":{"x":70,"y":10,"width":20,"height":16,"count":2}}"#)
    }

    /// Decision: a chip wider than the container takes the last visible row alone (count 0, start = first hidden index).
    func testChipThatCannotFitAloneTakesTheLastRow() {
        let items = Array(repeating: #"{"width":30,"height":10}"#, count: 7).joined(separator: ",")
        let response = layout(#"""
            {"containerWidth":100,"columnGap":5,"maxRows":2,"overflowIndicator":{"width":120,"height":16},"items":[\#(items)]}
            """#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"items":["#
            + #"{"index":0,"row":0,"x":0,"y":0,"width":30,"height":10},"#
            + #"{"index":1,"row":0,"x":35,"y":0,"width":30,"height":10},"#
            + #"{"index":2,"row":0,"x":70,"y":0,"width":30,"height":10}],"#
            + #""rows":[{"y":0,"height":10,"width":100,"start":0,"count":3},"#
            + #"{"y":10,"height":16,"width":120,"start":3,"count":0}],"#
            + #""size":{"width":100,"height":26},"hiddenCount":4,"#
            + #""overflowIndicator":{"x":0,"y":10,"width":120,"height":16,"count":4}}"#)
    }

    /// Decision: overflowIndicator without maxRows is ignored; with nothing hidden there is no chip either.
    func testChipOnlyWhenRequestedAndItemsHidden() {
        let items = Array(repeating: #"{"width":30,"height":10}"#, count: 7).joined(separator: ",")
        let plain = layout(#"{"containerWidth":100,"columnGap":5,"items":[\#(items)]}"#)
        let chipWithoutMaxRows = layout(
            #"{"containerWidth":100,"columnGap":5,"overflowIndicator":{"width":20,"height":16},"items":[\#(items)]}"#)
        let nothingHidden = layout(
            #"{"containerWidth":100,"columnGap":5,"maxRows":3,"overflowIndicator":{"width":20,"height":16},"items":[\#(items)]}"#)
        let hiddenWithoutChip = layout(#"{"containerWidth":100,"columnGap":5,"maxRows":1,"items":[\#(items)]}"#)
        XCTAssertEqual(plain.status, 200)
        XCTAssertEqual(chipWithoutMaxRows.text, plain.text)
        XCTAssertEqual(nothingHidden.text, plain.text)
        XCTAssertFalse(plain.text.contains("overflowIndicator"))
        XCTAssertTrue(hiddenWithoutChip.text.hasSuffix(#""hiddenCount":4}"#), hiddenWithoutChip.text)
    }

    /// Free space 80 shared by spaceEvenly in thirds: exact numbers as shortest round-trip doubles, or snapped to halves.
    func testFractionsAndPixelScale() {
        let body = #"{"containerWidth":100,"alignment":"spaceEvenly","items":[{"width":10,"height":10},{"width":10,"height":10}]"#
        XCTAssertEqual(layout(body + "}").text, #"{"items":["#
            + #"{"index":0,"row":0,"x":26.666666666666668,"y":0,"width":10,"height":10},"#
            + #"{"index":1,"row":0,"x":63.33333333333334,"y":0,"width":10,"height":10}],"#
            + #""rows":[{"y":0,"height":10,"width":20,"start":0,"count":2}],"size":{"width":100,"height":10},"hiddenCount":0}"#)
        XCTAssertEqual(layout(body + #","pixelScale":2}"#).text, #"{"items":["#
            + #"{"index":0,"row":0,"x":26.5,"y":0,"width":10,"height":10},"#
            + #"{"index":1,"row":0,"x":63.5,"y":0,"width":10,"height":10}],"#
            + #""rows":[{"y":0,"height":10,"width":20,"start":0,"count":2}],"size":{"width":100,"height":10},"hiddenCount":0}"#)
    }

    /// Every option at once, rtl mirrored, breakBefore and balanced breaking; null optional members mean absent.
    func testOptionsAndNulls() {
        let response = layout(#"""
            {"containerWidth":100,"horizontalSpacing":1,"verticalSpacing":2,"columnGap":3,"rowGap":4,
             "alignment":"trailing","rowAlignment":"bottom","direction":"rtl","lineBreaking":"balanced",
             "maxRows":null,"pixelScale":null,"overflowIndicator":null,
             "items":[{"width":40,"height":10},{"width":40,"height":6,"breakBefore":true},{"width":10,"height":6,"breakBefore":null}]}
            """#)
        XCTAssertEqual(response.status, 200)
        // Rows [42] and [42, 12] (57 wide); trailing in rtl puts them at the left edge.
        XCTAssertEqual(response.text, #"{"items":["#
            + #"{"index":0,"row":0,"x":1,"y":2,"width":40,"height":10},"#
            + #"{"index":1,"row":1,"x":16,"y":20,"width":40,"height":6},"#
            + #"{"index":2,"row":1,"x":1,"y":20,"width":10,"height":6}],"#
            + #""rows":[{"y":0,"height":14,"width":42,"start":0,"count":1},"#
            + #"{"y":18,"height":10,"width":57,"start":1,"count":2}],"size":{"width":100,"height":28},"hiddenCount":0}"#)
    }
}

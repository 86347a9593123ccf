import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Rule "item limit": 1,000,000 items are laid out; one more is a 422 at /items.
final class FlowLimitsTests: XCTestCase {
    private let service = TrellisService()

    private func uniformItems(_ count: Int) -> String {
        #"{"containerWidth":1000,"items":["# + Array(repeating: #"{"width":10,"height":10}"#, count: count).joined(separator: ",") + "]}"
    }

    /// 100 cells of 10 fill each 1000 wide row exactly: 10,000 rows, the last item at (990, 99990).
    func testAMillionItemsAreLaidOut() {
        let response = call(service, "POST", "/v1/flow/layout", json: uniformItems(FlowLimits.maxItems))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.text.hasPrefix(#"{"items":[{"index":0,"row":0,"x":0,"y":0,"width":10,"height":10},"#))
        XCTAssertTrue(response.text.contains(#"{"index":999999,"row":9999,"x":990,"y":99990,"width":10,"height":10}],"rows":["#))
        XCTAssertTrue(response.text.hasSuffix(
            #"{"y":99990,"height":10,"width":1000,"start":999900,"count":100}],"size":{"width":1000,"height":100000},"hiddenCount":0}"#))
    }

    func testOneItemPastTheLimitIsRejected() {
        let response = call(service, "POST", "/v1/flow/layout", json: uniformItems(FlowLimits.maxItems + 1))
        XCTAssertEqual(response.status, 422)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors, [["pointer": "/items", "detail": "must have at most 1000000 elements"]])
    }

    /// Rule "finite output": the largest lengths allowed still give finite numbers everywhere.
    func testLargestLengthsStayFinite() {
        let big = "1000000000"
        let items = Array(repeating: #"{"width":\#(big),"height":\#(big)}"#, count: 1000).joined(separator: ",")
        let json = #"{"containerWidth":\#(big),"horizontalSpacing":\#(big),"verticalSpacing":\#(big),"columnGap":\#(big),"#
            + #""rowGap":\#(big),"pixelScale":999,"items":[\#(items)],"maxRows":900,"overflowIndicator":{"width":\#(big),"height":\#(big)}}"#
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.text.hasSuffix(#""size":{"width":1000000000,"height":3599000000000},"hiddenCount":101,"#
            + #""overflowIndicator":{"x":1000000000,"y":3597000000000,"width":1000000000,"height":1000000000,"count":101}}"#), String(response.text.suffix(300)))
    }
}

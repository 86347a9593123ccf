import Foundation
import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

/// Every 422 of POST /v1/flow/layout with its pointers; every problem in a request is listed.
final class FlowValidationTests: XCTestCase {
    private let service = TrellisService()
    private let length = "must be a number within [0, 1000000000]"

    /// The 422's errors as [pointer, detail] pairs.
    private func problems(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    func testBodyMustBeAnObject() {
        XCTAssertEqual(problems("[]"), [["", "must be an object"]])
        XCTAssertEqual(problems("3"), [["", "must be an object"]])
    }

    func testRequiredMembers() {
        XCTAssertEqual(problems("{}"), [["/containerWidth", "is required"], ["/items", "is required"]])
        XCTAssertEqual(problems(#"{"containerWidth":null,"items":null}"#), [
            ["/containerWidth", "must be a number"], ["/items", "must be an array"],
        ])
    }

    func testContainerWidth() {
        XCTAssertEqual(problems(#"{"containerWidth":-1,"items":[]}"#), [["/containerWidth", length]])
        XCTAssertEqual(problems(#"{"containerWidth":"300","items":[]}"#), [["/containerWidth", "must be a number"]])
        XCTAssertEqual(problems(#"{"containerWidth":1000000000.5,"items":[]}"#), [["/containerWidth", length]])
    }

    func testItems() {
        let json = #"""
            {"containerWidth":100,"items":[
              {"width":1,"height":1}, 5, {"height":1}, {"width":-0.5,"height":"1"}, {"width":true,"height":1,"breakBefore":1},
              {"width":1,"height":1,"id":1.5}, {"width":1,"height":1,"id":9007199254740993}, {"width":1,"height":1,"id":[]},
              {"width":1,"height":-1,"width":-2}, {"Width":1,"height":1}]}
            """#
        XCTAssertEqual(problems(json), [
            ["/items/1", "must be an object"],
            ["/items/2/width", "is required"],
            ["/items/3/width", length],
            ["/items/3/height", "must be a number"],
            ["/items/4/width", "must be a number"],
            ["/items/4/breakBefore", "must be true or false"],
            ["/items/5/id", "must be a string or an integer"],
            ["/items/6/id", "must be a string or an integer with magnitude at most 2^53"],
            ["/items/7/id", "must be a string or an integer"],
            ["/items/8/width", length],
            ["/items/8/height", length],
            ["/items/9/width", "is required"],
        ])
    }

    func testSpacingAndGaps() {
        let json = #"{"containerWidth":1,"items":[],"horizontalSpacing":-1,"verticalSpacing":"4","columnGap":-0.25,"rowGap":2e9}"#
        XCTAssertEqual(problems(json), [
            ["/horizontalSpacing", length], ["/verticalSpacing", "must be a number"],
            ["/columnGap", length], ["/rowGap", length],
        ])
    }

    func testEnums() {
        let json = #"{"containerWidth":1,"items":[],"alignment":"left","rowAlignment":1,"direction":"RTL","lineBreaking":"optimal"}"#
        XCTAssertEqual(problems(json), [
            ["/alignment", #"must be one of "leading", "center", "trailing", "spaceBetween", "spaceAround", "spaceEvenly""#],
            ["/rowAlignment", #"must be one of "top", "center", "bottom""#],
            ["/direction", #"must be one of "ltr", "rtl""#],
            ["/lineBreaking", #"must be one of "greedy", "balanced""#],
        ])
    }

    func testMaxRows() {
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":0}"#), [["/maxRows", "must be within 1...2147483647"]])
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":-3}"#), [["/maxRows", "must be within 1...2147483647"]])
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":2.5}"#), [["/maxRows", "must be an integer within 1...2147483647"]])
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":"2"}"#), [["/maxRows", "must be an integer"]])
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":2147483648}"#), [["/maxRows", "must be within 1...2147483647"]])
    }

    func testOverflowIndicator() {
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":1,"overflowIndicator":[1,2]}"#), [
            ["/overflowIndicator", "must be an object"],
        ])
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"maxRows":1,"overflowIndicator":{"width":-1}}"#), [
            ["/overflowIndicator/width", length], ["/overflowIndicator/height", "is required"],
        ])
        // Decision: without maxRows the chip is ignored, but it is still validated.
        XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"overflowIndicator":{"width":1,"height":"2"}}"#), [
            ["/overflowIndicator/height", "must be a number"],
        ])
    }

    func testPixelScale() {
        for scale in ["0", "-2", "1000", "true"] {
            let expected = scale == "true" ? "must be a number" : "must be a number within (0, 1000)"
            XCTAssertEqual(problems(#"{"containerWidth":1,"items":[],"pixelScale":\#(scale)}"#), [["/pixelScale", expected]])
        }
    }

    /// One request with seven problems lists all seven; unknown members are ignored.
    func testSeveralProblemsAllListed() {
        let json = #"""
            {"containerWidth":-5,"items":[{"width":1},{"width":1,"height":1,"id":false}],"alignment":"middle",
             "maxRows":0,"overflowIndicator":{"height":1},"pixelScale":0,"a/b~c":1}
            """#
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.json["detail"] as? String, "The request body has 7 problems; see errors.")
        XCTAssertEqual(problems(json), [
            ["/containerWidth", length],
            ["/items/0/height", "is required"],
            ["/items/1/id", "must be a string or an integer"],
            ["/alignment", #"must be one of "leading", "center", "trailing", "spaceBetween", "spaceAround", "spaceEvenly""#],
            ["/maxRows", "must be within 1...2147483647"],
            ["/overflowIndicator/width", "is required"],
            ["/pixelScale", "must be a number within (0, 1000)"],
        ])
    }

    func testOnlyTheFirstHundredProblemsAreListed() {
        let items = Array(repeating: #"{"width":-1,"height":1}"#, count: 150).joined(separator: ",")
        let response = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":1,"items":[\#(items)]}"#)
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.json["detail"] as? String, "The request body has 150 problems; see errors (the first 100 are listed).")
        let errors = response.json["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors.count, 100)
        XCTAssertEqual(errors.last?["pointer"], "/items/99/width")
    }

    func testNotJSON() {
        XCTAssertEqual(call(service, "POST", "/v1/flow/layout", json: "{").status, 400)
        XCTAssertEqual(call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":NaN,"items":[]}"#).status, 400)
        let plain = call(service, "POST", "/v1/flow/layout", headers: [("Content-Type", "text/plain")])
        XCTAssertEqual(plain.status, 415)
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// `lineHeight` in POST /v1/list/layout (shared and per paragraph) and in outline rows' `rowHeights`: the forms
/// POST /v1/text/layout takes (a number of px, or in a string "normal", a number times the font size, a percentage, px),
/// and every 422 with its pointer.
final class ListLineHeightTests: XCTestCase {
    private let service = TestFonts.service()
    private static let text = "one two three four five six seven"

    private func answer(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let response = call(service, "POST", path, json: body)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.text
    }

    private func list(shared: String, paragraph: String = "") -> String {
        let texts = paragraph.isEmpty ? #"["\#(Self.text)"]"# : #"[{"text":"\#(Self.text)"\#(paragraph)}]"#
        return answer("/v1/list/layout", #"{"font":{"family":"DejaVu Sans","size":16},"width":100\#(shared),"rows":[{"texts":\#(texts)}]}"#)
    }

    func testAListTakesEveryFormOfLineHeight() {
        // 1.5 × 16 px, 150 % of 16 px and "24px" are 24 px.
        let px = list(shared: #","lineHeight":24"#)
        XCTAssertNotEqual(px, list(shared: ""))
        for form in [#""1.5""#, #""150%""#, #""24px""#] {
            XCTAssertEqual(list(shared: #","lineHeight":\#(form)"#), px, form)
            XCTAssertEqual(list(shared: "", paragraph: #","lineHeight":\#(form)"#), px, form)
        }
        // A paragraph's "normal" is normal over the list's shared line height.
        XCTAssertEqual(list(shared: #","lineHeight":24"#, paragraph: #","lineHeight":"normal""#), list(shared: ""))
        XCTAssertEqual(list(shared: #","lineHeight":"normal""#), list(shared: ""))
    }

    func testOutlineRowHeightsTakeEveryFormOfLineHeight() {
        func rows(_ lineHeight: String) -> String {
            answer(
                "/v1/outline/rows",
                #"{"nodes":[{"id":1,"name":"\#(Self.text)"}],"rowHeights":{"font":{"family":"DejaVu Sans","size":16},"width":100,"labelKey":"name"\#(lineHeight)}}"#)
        }
        let px = rows(#","lineHeight":24"#)
        XCTAssertNotEqual(px, rows(""))
        XCTAssertEqual(rows(#","lineHeight":"1.5""#), px)
        XCTAssertEqual(rows(#","lineHeight":"150%""#), px)
    }

    func testEveryProblemHasItsPointer() {
        func problems(_ path: String, _ body: String) -> [String] {
            let response = call(service, "POST", path, json: body)
            XCTAssertEqual(response.status, 422, response.text)
            return (response.json["errors"] as? [[String: String]] ?? []).map { $0["pointer"] ?? "?" }
        }
        for value in [#""1.5em""#, #""0%""#, #""Normal""#, "-1", #""700""#] {
            XCTAssertEqual(
                problems("/v1/list/layout", #"{"font":{"family":"DejaVu Sans","size":16},"width":100,"lineHeight":\#(value),"rows":[{"texts":["a"]}]}"#),
                ["/lineHeight"], value)
            XCTAssertEqual(
                problems(
                    "/v1/list/layout",
                    #"{"font":{"family":"DejaVu Sans","size":16},"width":100,"rows":[{"texts":[{"text":"a","lineHeight":\#(value)}]}]}"#),
                ["/rows/0/texts/0/lineHeight"], value)
            XCTAssertEqual(
                problems(
                    "/v1/outline/rows",
                    #"{"nodes":[{"id":1,"name":"a"}],"rowHeights":{"font":{"family":"DejaVu Sans","size":16},"width":100,"labelKey":"name","lineHeight":\#(value)}}"#),
                ["/rowHeights/lineHeight"], value)
        }
    }
}

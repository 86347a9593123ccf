import XCTest
@testable import TrellisAPI
import TrellisTestSupport

final class OutlineRowsEndpointTests: XCTestCase {
    private let service = TrellisService()

    private func expect(_ body: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let response = call(service, "POST", "/v1/outline/rows", json: body)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        XCTAssertEqual(response.text, expected, file: file, line: line)
    }

    /// One row as the endpoint writes it.
    private func row(_ index: Int, _ id: String, _ depth: Int, _ parent: String?, _ expandable: Bool,
                     _ expanded: Bool, selected: Bool = false) -> String {
        #"{"index":\#(index),"id":"\#(id)","depth":\#(depth),"parent":\#(parent.map { "\"\($0)\"" } ?? "null"),"#
            + #""expandable":\#(expandable),"expanded":\#(expanded),"selected":\#(selected)}"#
    }

    private func answer(_ rows: [String], total: Int, selectedRow: Int?, noSelection: Bool?) -> String {
        #"{"rows":[\#(rows.joined(separator: ","))],"totalRows":\#(total),"selectedRow":\#(selectedRow.map(String.init) ?? "null")"#
            + (noSelection.map { #","noSelection":{"selected":\#($0)}"# } ?? "") + "}"
    }

    func testSeedExampleOpensAlongTheSelection() {
        for body in OutlineExamples.bodies(#""selection":"readme""#) {
            expect(body, answer([
                row(0, "root", 0, nil, true, true),
                row(1, "docs", 1, "root", true, true),
                row(2, "readme", 2, "docs", false, false, selected: true),
                row(3, "guides", 2, "docs", true, false),
                row(4, "src", 1, "root", true, false),
                row(5, "other", 0, nil, false, false),
            ], total: 6, selectedRow: 2, noSelection: false))
        }
    }

    func testNoSelectionShowsRootsAndSelectsTheNoSelectionRow() {
        for extra in ["", #""selection":null"#] {
            for body in OutlineExamples.bodies(extra) {
                expect(body, answer([row(0, "root", 0, nil, true, false), row(1, "other", 0, nil, false, false)],
                                    total: 2, selectedRow: nil, noSelection: true))
            }
        }
    }

    func testSelectionNotInTheTreeSelectsNothing() {
        for body in OutlineExamples.bodies(#""selection":"ghost""#) {
            expect(body, answer([row(0, "root", 0, nil, true, false), row(1, "other", 0, nil, false, false)],
                                total: 2, selectedRow: nil, noSelection: false))
        }
    }

    func testExplicitExpandedIgnoresLeavesAndUnknownIds() {
        for body in OutlineExamples.bodies(#""selection":"intro","expanded":["src","ghost","readme","root","other",7]"#) {
            expect(body, answer([
                row(0, "root", 0, nil, true, true),
                row(1, "docs", 1, "root", true, false),
                row(2, "src", 1, "root", true, true),
                row(3, "main", 2, "src", false, false),
                row(4, "other", 0, nil, false, false),
            ], total: 5, selectedRow: nil, noSelection: false))
        }
        for body in OutlineExamples.bodies(#""selection":"root","expanded":[]"#) {
            expect(body, answer([row(0, "root", 0, nil, true, false, selected: true), row(1, "other", 0, nil, false, false)],
                                total: 2, selectedRow: 0, noSelection: false))
        }
    }

    func testWindowing() {
        let all = #""selection":"main","expanded":["root","docs","guides","src"]"#
        for body in OutlineExamples.bodies(all + #","offset":2,"limit":3"#) {
            expect(body, answer([
                row(2, "readme", 2, "docs", false, false),
                row(3, "guides", 2, "docs", true, true),
                row(4, "intro", 3, "guides", false, false),
            ], total: 8, selectedRow: 6, noSelection: false))
        }
        for body in OutlineExamples.bodies(all + #","offset":6"#) {
            expect(body, answer([row(6, "main", 2, "src", false, false, selected: true), row(7, "other", 0, nil, false, false)],
                                total: 8, selectedRow: 6, noSelection: false))
        }
        for window in [#""offset":8"#, #""offset":9007199254740993"#, #""limit":0"#, #""offset":3,"limit":0"#] {
            for body in OutlineExamples.bodies(all + "," + window) {
                expect(body, answer([], total: 8, selectedRow: 6, noSelection: false))
            }
        }
        for body in OutlineExamples.bodies(all + #","offset":null,"limit":9223372036854775807"#) {
            let response = call(service, "POST", "/v1/outline/rows", json: body)
            XCTAssertEqual((response.json["rows"] as? [Any])?.count, 8)
        }
    }

    func testIncludeNoSelectionFalseLeavesTheRowOut() {
        for body in OutlineExamples.bodies(#""expanded":[],"includeNoSelection":false"#) {
            expect(body, answer([row(0, "root", 0, nil, true, false), row(1, "other", 0, nil, false, false)],
                                total: 2, selectedRow: nil, noSelection: nil))
        }
    }

    func testNestedEmptyChildrenIsExpandableButFlatNeedsAChild() {
        expect(#"{"nodes":[{"id":"a","children":[]},{"id":"b","children":null}],"expanded":["a","b"]}"#,
               answer([row(0, "a", 0, nil, true, true), row(1, "b", 0, nil, false, false)],
                      total: 2, selectedRow: nil, noSelection: true))
        expect(#"{"parentKey":"parent","nodes":[{"id":"a","children":[]},{"id":"b"}],"expanded":["a","b"]}"#,
               answer([row(0, "a", 0, nil, false, false), row(1, "b", 0, nil, false, false)],
                      total: 2, selectedRow: nil, noSelection: true))
    }

    func testCustomKeysInBothForms() {
        let nested = #"{"idKey":"name","childrenKey":"kids","nodes":[{"name":"a","kids":[{"name":"b"}]}],"selection":"b"}"#
        let flat = #"{"idKey":"name","parentKey":"up","nodes":[{"name":"b","up":"a"},{"name":"a","up":null}],"selection":"b"}"#
        for body in [nested, flat] {
            expect(body, answer([row(0, "a", 0, nil, true, true), row(1, "b", 1, "a", false, false, selected: true)],
                                total: 2, selectedRow: 1, noSelection: false))
        }
    }
}

import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

/// 422: every problem in the body, each with its JSON Pointer.
final class SectionsToggleValidationTests: XCTestCase {
    private let service = TrellisService()
    private let actionTypes = #"must be one of "toggle", "expand", "collapse", "expandAll", "collapseAll""#

    private func assertProblems(_ json: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let response = call(service, "POST", SectionsTestJSON.path, json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        XCTAssertEqual(SectionsTestJSON.problems(response), expected, file: file, line: line)
    }

    func testBodyMustBeAnObjectWithSections() {
        assertProblems("[]", [": must be an object"])
        assertProblems("{}", ["/sections: is required"])
        assertProblems(#"{"sections":null}"#, ["/sections: must be an array"])
        assertProblems(#"{"sections":{}}"#, ["/sections: must be an array"])
    }

    func testSectionsWithWrongTypes() {
        assertProblems(#"{"sections":[1,{},{"id":true},{"id":1.5},{"id":9007199254740993},{"id":"a","items":"x"},{"id":"b","items":{"k":1}}]}"#, [
            "/sections/0: must be an object",
            "/sections/1/id: is required",
            "/sections/2/id: must be a string or an integer",
            "/sections/3/id: must be a string or an integer",
            "/sections/4/id: must be a string or an integer with magnitude at most 2^53",
            "/sections/5/items: must be an array",
            "/sections/6/items: must be an array",
        ])
    }

    /// Duplicate section ids → 422, naming the first occurrence; `1` and `"1"` differ.
    func testDuplicateSectionIdsNameTheFirstOccurrence() {
        assertProblems(#"{"sections":[{"id":"食べ物"},{"id":"飲み物"},{"id":"食べ物"},{"id":1},{"id":"1"},{"id":1},{"id":"食べ物"}]}"#, [
            #"/sections/2/id: "食べ物" is already the id of /sections/0/id; section ids must be unique"#,
            "/sections/5/id: 1 is already the id of /sections/3/id; section ids must be unique",
            #"/sections/6/id: "食べ物" is already the id of /sections/0/id; section ids must be unique"#,
        ])
    }

    /// An id in `expanded` that is not a section → 422.
    func testUnknownOrMistypedIdsInExpanded() {
        assertProblems(#"{"sections":[{"id":"a"},{"id":1}],"expanded":["a","b","1",1,null,{}]}"#, [
            #"/expanded/1: "b" is not the id of a section"#,
            #"/expanded/2: "1" is not the id of a section"#,
            "/expanded/4: must be a string or an integer",
            "/expanded/5: must be a string or an integer",
        ])
        assertProblems(#"{"sections":[{"id":"a"}],"expanded":"a"}"#, ["/expanded: must be an array"])
    }

    func testLongUnknownIdsAreQuotedShortened() {
        let long = String(repeating: "x", count: 150)
        assertProblems(#"{"sections":[],"toggle":"\#(long)"}"#, [
            #"/toggle: "\#(String(repeating: "x", count: 100))…" is not the id of a section"#,
        ])
    }

    /// Giving both `toggle` and `actions` → 422; their contents are still checked.
    func testToggleAndActionsTogether() {
        assertProblems(#"{"sections":[{"id":"a"}],"toggle":"a","actions":[]}"#, [
            "/actions: cannot be sent together with toggle; send one or the other",
        ])
        assertProblems(#"{"sections":[{"id":"a"}],"toggle":"b","actions":[{"type":"expand","section":"c"}]}"#, [
            #"/toggle: "b" is not the id of a section"#,
            "/actions: cannot be sent together with toggle; send one or the other",
            #"/actions/0/section: "c" is not the id of a section"#,
        ])
    }

    func testToggleMustNameASection() {
        assertProblems(#"{"sections":[{"id":"a"}],"toggle":"z"}"#, [#"/toggle: "z" is not the id of a section"#])
        assertProblems(#"{"sections":[{"id":"1"}],"toggle":1}"#, ["/toggle: 1 is not the id of a section"])
        assertProblems(#"{"sections":[{"id":"a"}],"toggle":true}"#, ["/toggle: must be a string or an integer"])
        assertProblems(#"{"sections":[{"id":1}],"toggle":1.5}"#, ["/toggle: must be a string or an integer"])
        assertProblems(#"{"sections":[{"id":"1"}],"toggle":1.0}"#, ["/toggle: 1 is not the id of a section"])
    }

    /// An action naming an unknown section → 422 at the action's `section`.
    func testActionsWithProblems() {
        assertProblems("""
            {"sections":[{"id":"a"}],"actions":[{"type":"toggle","section":"b"},{"type":"expand"},{"section":"a"},"toggle",
             {"type":"open","section":"a"},{"type":"collapse","section":["a"]},{"type":1},{"type":"collapse","section":"A"},
             {"type":"expandAll"},{"type":"collapseAll","section":"ignored"}]}
            """, [
            #"/actions/0/section: "b" is not the id of a section"#,
            "/actions/1/section: is required",
            "/actions/2/type: is required",
            "/actions/3: must be an object",
            "/actions/4/type: " + actionTypes,
            "/actions/5/section: must be a string or an integer",
            "/actions/6/type: " + actionTypes,
            #"/actions/7/section: "A" is not the id of a section"#,
        ])
        assertProblems(#"{"sections":[{"id":"a"}],"actions":{"type":"toggle","section":"a"}}"#, ["/actions: must be an array"])
    }

    /// Single mode: more than one id in `expanded` → 422.
    func testSingleModeWithMoreThanOneExpanded() {
        assertProblems(#"{"sections":[{"id":"a"},{"id":"b"},{"id":"c"}],"mode":"single","expanded":["a","b","a","c"]}"#, [
            "/expanded: has 3 different ids; in single mode at most one section is open",
        ])
    }

    /// Single mode: `expandAll` → 422.
    func testSingleModeExpandAll() {
        assertProblems(#"{"sections":[{"id":"a"}],"mode":"single","actions":[{"type":"collapseAll"},{"type":"expandAll"}]}"#, [
            "/actions/1/type: expandAll is not allowed in single mode, where at most one section is open",
        ])
    }

    func testBadModeAndCollapsible() {
        // An unreadable mode is reported alone: the single-mode rules are not applied on a guess.
        assertProblems(#"{"sections":[{"id":"a"},{"id":"b"}],"mode":"Single","expanded":["a","b"],"actions":[{"type":"expandAll"}]}"#, [
            #"/mode: must be one of "multiple", "single""#,
        ])
        assertProblems(#"{"sections":[],"mode":1,"collapsible":"no"}"#, [
            #"/mode: must be one of "multiple", "single""#,
            "/collapsible: must be true or false",
        ])
    }

    /// Unknown ids are not reported while `sections` itself is unreadable.
    func testUnreadableSectionsHidesUnknownIds() {
        assertProblems(#"{"sections":"a","expanded":["a",true],"toggle":"b"}"#, [
            "/sections: must be an array",
            "/expanded/1: must be a string or an integer",
        ])
    }

    /// Documented limits (openapi.yaml maxItems): 10,000 sections, expanded ids and actions.
    func testLimits() {
        let tooMany = SectionsLimits.maxSections + 1
        let sections = (0..<tooMany).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        assertProblems(#"{"sections":[\#(sections)]}"#, ["/sections: must have at most 10000 elements"])
        let ids = (0..<(SectionsLimits.maxExpanded + 1)).map { _ in "0" }.joined(separator: ",")
        assertProblems(#"{"sections":[{"id":0}],"expanded":[\#(ids)]}"#, ["/expanded: must have at most 10000 elements"])
        let actions = (0..<(SectionsLimits.maxActions + 1)).map { _ in #"{"type":"collapseAll"}"# }.joined(separator: ",")
        assertProblems(#"{"sections":[{"id":0}],"actions":[\#(actions)]}"#, ["/actions: must have at most 10000 elements"])
    }

    func testEveryProblemIsCollected() {
        assertProblems(#"""
            {"sections":[{"id":1},{"id":"1","items":{}},{"id":1},{"id":1.5},{}],"expanded":[2,1,"1",[]],"mode":"single",
             "collapsible":"no","toggle":3,"actions":[{"type":"expandAll"},{"type":"toggle"},{"type":"nope"},
             {"type":"collapse","section":"x"},5]}
            """#, [
            "/sections/1/items: must be an array",
            "/sections/2/id: 1 is already the id of /sections/0/id; section ids must be unique",
            "/sections/3/id: must be a string or an integer",
            "/sections/4/id: is required",
            "/collapsible: must be true or false",
            "/expanded/0: 2 is not the id of a section",
            "/expanded/3: must be a string or an integer",
            "/expanded: has 2 different ids; in single mode at most one section is open",
            "/toggle: 3 is not the id of a section",
            "/actions: cannot be sent together with toggle; send one or the other",
            "/actions/0/type: expandAll is not allowed in single mode, where at most one section is open",
            "/actions/1/section: is required",
            "/actions/2/type: " + actionTypes,
            #"/actions/3/section: "x" is not the id of a section"#,
            "/actions/4: must be an object",
        ])
    }

    func testAtMostOneHundredProblemsAreListed() {
        let ids = (0..<150).map { "\($0)" }.joined(separator: ",")
        let response = call(service, "POST", SectionsTestJSON.path, json: #"{"sections":[],"expanded":[\#(ids)]}"#)
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.json["detail"] as? String, "The request body has 150 problems; see errors (the first 100 are listed).")
        let problems = SectionsTestJSON.problems(response)
        XCTAssertEqual(problems.count, 100)
        XCTAssertEqual(problems.last, "/expanded/99: 99 is not the id of a section")
    }
}

import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// `POST /v1/sections/toggle` through the router: whole response bodies for both modes and actions.
final class SectionsToggleEndpointTests: XCTestCase {
    private let service = TrellisService()

    private func post(_ json: String) -> TestResponse {
        call(service, "POST", SectionsTestJSON.path, json: json)
    }

    /// One expected `sections[i]`; `id` and `items` are JSON text, `items` the full list.
    private func section(_ id: String, _ expanded: Bool, disabled: Bool = false, items: String = "[]", count: Int = 0) -> String {
        #"{"id":\#(id),"expanded":\#(expanded),"headerDisabled":\#(disabled),"icon":"\#(expanded ? "chevron.up" : "chevron.down")","showDivider":\#(!expanded),"items":\#(expanded ? items : "[]"),"itemCount":\#(count)}"#
    }

    private func body(expanded: String, changed: String, _ sections: String...) -> String {
        #"{"expanded":\#(expanded),"changed":\#(changed),"sections":[\#(sections.joined(separator: ","))]}"#
    }

    private let food = #"["明太子パスタ","ショートケーキ","プロシュート","パウンドケーキ"]"#
    private let drinks = #"["コーラ","ルイボスティー"]"#

    private func seedRequest(expanded: String, toggle: String) -> String {
        """
        { "sections": [ { "id": "食べ物", "items": ["明太子パスタ", "ショートケーキ", "プロシュート", "パウンドケーキ"] },
                        { "id": "飲み物", "items": ["コーラ", "ルイボスティー"] } ],
          "expanded": \(expanded),
          "toggle": \(toggle) }
        """
    }

    func testSeedExampleMatchesIssueFiveByteForByte() {
        let response = post(seedRequest(expanded: #"["食べ物"]"#, toggle: #""飲み物""#))
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        SectionsTestJSON.assertBody(
            response,
            #"{"expanded":["食べ物","飲み物"],"changed":["飲み物"],"sections":["#
                + #"{"id":"食べ物","expanded":true,"headerDisabled":false,"icon":"chevron.up","showDivider":false,"items":["明太子パスタ","ショートケーキ","プロシュート","パウンドケーキ"],"itemCount":4},"#
                + #"{"id":"飲み物","expanded":true,"headerDisabled":false,"icon":"chevron.up","showDivider":false,"items":["コーラ","ルイボスティー"],"itemCount":2}]}"#
        )
    }

    func testSeedTogglingTheOpenSectionClosesItAndHidesItsItems() {
        let response = post(seedRequest(expanded: #"["食べ物"]"#, toggle: #""食べ物""#))
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: "[]", changed: #"["食べ物"]"#,
            section(#""食べ物""#, false, count: 4), section(#""飲み物""#, false, count: 2)))
    }

    func testNeitherToggleNorActionsRendersTheStateUnchanged() {
        let response = post(#"{"sections":[{"id":"食べ物","items":["明太子パスタ","ショートケーキ","プロシュート","パウンドケーキ"]},{"id":"飲み物","items":["コーラ","ルイボスティー"]}],"expanded":["飲み物"]}"#)
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["飲み物"]"#, changed: "[]",
            section(#""食べ物""#, false, count: 4), section(#""飲み物""#, true, items: drinks, count: 2)))
    }

    func testExpandedDefaultsToNoneAndNullMeansAbsent() {
        for request in [
            #"{"sections":[{"id":"a"},{"id":"b"}],"toggle":"b"}"#,
            #"{"sections":[{"id":"a"},{"id":"b"}],"expanded":null,"mode":null,"collapsible":null,"actions":null,"toggle":"b"}"#,
        ] {
            let response = post(request)
            XCTAssertEqual(response.status, 200, request)
            SectionsTestJSON.assertBody(response, body(expanded: #"["b"]"#, changed: #"["b"]"#, section(#""a""#, false), section(#""b""#, true)), request)
        }
    }

    func testNoSectionsAnswersEmptyLists() {
        SectionsTestJSON.assertBody(post(#"{"sections":[]}"#), body(expanded: "[]", changed: "[]"))
        SectionsTestJSON.assertBody(post(#"{"sections":[],"actions":[{"type":"expandAll"},{"type":"collapseAll"}]}"#), body(expanded: "[]", changed: "[]"))
    }

    /// Multiple mode: every action, applied in order; integer and string ids stay distinct.
    func testMultipleModeActionSequence() {
        let response = post("""
            {"sections":[{"id":"a","items":[1]},{"id":2,"items":[{"k":"v"}]},{"id":"2"}],
             "expanded":["2"],
             "actions":[{"type":"expandAll"},{"type":"collapse","section":2},{"type":"toggle","section":"2"},
                        {"type":"expand","section":2},{"type":"collapseAll"},{"type":"expand","section":"a"},
                        {"type":"toggle","section":2}]}
            """)
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["a",2]"#, changed: #"["a",2,"2"]"#,
            section(#""a""#, true, items: "[1]", count: 1),
            section("2", true, items: #"[{"k":"v"}]"#, count: 1),
            section(#""2""#, false)))
    }

    func testMultipleModeIgnoresCollapsibleFalse() {
        let response = post(#"{"sections":[{"id":"a"},{"id":"b"}],"expanded":["a","b"],"collapsible":false,"actions":[{"type":"toggle","section":"a"},{"type":"collapse","section":"b"}]}"#)
        SectionsTestJSON.assertBody(response, body(expanded: "[]", changed: #"["a","b"]"#, section(#""a""#, false), section(#""b""#, false)))
    }

    /// Single mode: opening one closes the others; toggling the open one closes it.
    func testSingleModeToggleSwitchesTheOpenSection() {
        let response = post(#"{"sections":[{"id":"a"},{"id":"b"},{"id":"c"}],"expanded":["a"],"mode":"single","toggle":"b"}"#)
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["b"]"#, changed: #"["a","b"]"#, section(#""a""#, false), section(#""b""#, true), section(#""c""#, false)))

        let closing = post(#"{"sections":[{"id":"a"},{"id":"b"},{"id":"c"}],"expanded":["a"],"mode":"single","toggle":"a"}"#)
        SectionsTestJSON.assertBody(closing, body(
            expanded: "[]", changed: #"["a"]"#, section(#""a""#, false), section(#""b""#, false), section(#""c""#, false)))
    }

    func testSingleModeActionSequence() {
        let response = post("""
            {"sections":[{"id":"a"},{"id":"b"},{"id":"c"}],"mode":"single",
             "actions":[{"type":"expand","section":"c"},{"type":"expand","section":"a"},{"type":"collapse","section":"c"},
                        {"type":"collapseAll"},{"type":"toggle","section":"b"},{"type":"expand","section":"b"}]}
            """)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["b"]"#, changed: #"["b"]"#, section(#""a""#, false), section(#""b""#, true), section(#""c""#, false)))
    }

    /// `collapsible: false`: the open section stays open and its header is disabled.
    func testSingleModeNotCollapsibleKeepsTheOpenSectionOpen() {
        let response = post("""
            {"sections":[{"id":"a","items":["x"]},{"id":"b"}],"expanded":["a"],"mode":"single","collapsible":false,
             "actions":[{"type":"toggle","section":"a"},{"type":"collapse","section":"a"},{"type":"collapseAll"}]}
            """)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["a"]"#, changed: "[]", section(#""a""#, true, disabled: true, items: #"["x"]"#, count: 1), section(#""b""#, false)))

        let switching = post(#"{"sections":[{"id":"a"},{"id":"b"}],"expanded":["a"],"mode":"single","collapsible":false,"toggle":"b"}"#)
        SectionsTestJSON.assertBody(switching, body(
            expanded: #"["b"]"#, changed: #"["a","b"]"#, section(#""a""#, false), section(#""b""#, true, disabled: true)))

        let noneOpen = post(#"{"sections":[{"id":"a"}],"mode":"single","collapsible":false}"#)
        SectionsTestJSON.assertBody(noneOpen, body(expanded: "[]", changed: "[]", section(#""a""#, false)))
    }

    /// Decision: `expanded` is a set; a repeated id is harmless, also in single mode.
    func testRepeatedIdsInExpandedAreHarmless() {
        let multiple = post(#"{"sections":[{"id":"a"},{"id":"b"}],"expanded":["b","a","b"]}"#)
        SectionsTestJSON.assertBody(multiple, body(expanded: #"["a","b"]"#, changed: "[]", section(#""a""#, true), section(#""b""#, true)))

        let single = post(#"{"sections":[{"id":"a"},{"id":"b"}],"expanded":["b","b"],"mode":"single","toggle":"a"}"#)
        SectionsTestJSON.assertBody(single, body(expanded: #"["a"]"#, changed: #"["a","b"]"#, section(#""a""#, true), section(#""b""#, false)))
    }

    /// Items are any JSON values and come back equivalent; unknown members are ignored.
    func testItemsOfAnyKindAreEchoedWhileOpen() {
        let response = post(#"""
            {"sections":[{"id":"🍰","title":"ignored","items":["明太子パスタ",1,-2.5,true,null,{"k":["v",{"x":"\u00e9"}]},"tab\there","quote\"",[],{}]},
                         {"id":"empty","items":[]},{"id":"absent"},{"id":"null","items":null}],
             "expanded":["🍰","empty","absent","null"],"extra":{"ignored":true}}
            """#)
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["🍰","empty","absent","null"]"#, changed: "[]",
            section(#""🍰""#, true, items: #"["明太子パスタ",1,-2.5,true,null,{"k":["v",{"x":"é"}]},"tab\there","quote\"",[],{}]"#, count: 10),
            section(#""empty""#, true), section(#""absent""#, true), section(#""null""#, true)))
    }

    /// Ids come back exactly: escapes, Unicode without normalisation, integers up to 2^53.
    func testIdsRoundTripExactly() {
        let decomposed = "e\u{301}"
        let response = post(#"{"sections":[{"id":"\u00e9"},{"id":"\#(decomposed)"},{"id":"a\"b/c"},{"id":-9007199254740992},{"id":9007199254740992}],"actions":[{"type":"expand","section":"\#(decomposed)"},{"type":"expand","section":9007199254740992}]}"#)
        XCTAssertEqual(response.status, 200)
        SectionsTestJSON.assertBody(response, body(
            expanded: #"["\#(decomposed)",9007199254740992]"#, changed: #"["\#(decomposed)",9007199254740992]"#,
            section(#""é""#, false), section(#""\#(decomposed)""#, true), section(#""a\"b/c""#, false),
            section("-9007199254740992", false), section("9007199254740992", true)))
    }

    func testDocumentedLimitsAreAccepted() {
        let count = SectionsLimits.maxSections
        let sections = (0..<count).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let actions = (0..<SectionsLimits.maxActions).map { #"{"type":"toggle","section":\#($0 % count)}"# }.joined(separator: ",")
        let expanded = (0..<SectionsLimits.maxExpanded).map { "\($0)" }.joined(separator: ",")
        let response = post(#"{"sections":[\#(sections)],"expanded":[\#(expanded)],"actions":[\#(actions)]}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual((response.json["expanded"] as? [Any])?.count, 0)
        XCTAssertEqual((response.json["changed"] as? [Any])?.count, count)
    }

    func testNotJSONAnswers415And400() {
        let unsupported = call(service, "POST", SectionsTestJSON.path, json: nil)
        XCTAssertEqual(unsupported.status, 415)
        let invalid = post(#"{"sections":["#)
        XCTAssertEqual(invalid.status, 400)
        XCTAssertEqual(invalid.header("Content-Type"), "application/problem+json")
    }

    func testOnlyPostIsAllowed() {
        let response = call(service, "GET", SectionsTestJSON.path)
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.header("Allow"), "POST, OPTIONS")
    }
}

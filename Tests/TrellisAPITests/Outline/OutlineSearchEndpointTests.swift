import TrellisServer
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// `search` on both outline endpoints, over a real socket: whole answers for small trees, every problem
/// with its pointer, and the answer bound.
final class OutlineSearchEndpointTests: XCTestCase {
    private var server: LiveServer!

    override func setUpWithError() throws {
        server = try LiveServer()
    }

    override func tearDown() {
        server = nil
    }

    /// The picker's tree with labels: root/docs/{readme, guides/intro}, root/src/main, other.
    private let picker = """
        "nodes":[{"id":"root","label":"Root","children":[{"id":"docs","label":"Docs","children":[\
        {"id":"readme","label":"README.md"},{"id":"guides","label":"Guides","children":[{"id":"intro","label":"Intro, read first"}]}]},\
        {"id":"src","label":"src","children":[{"id":"main","label":"main.swift"}]}]},{"id":"other","label":"Other"}]
        """

    private func post(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> TestResponse {
        try server.request("POST", path, json: body)
    }

    /// Posts `body` and checks the status and the whole answer text.
    private func expect(
        _ path: String, _ body: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let response = try post(path, body)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        XCTAssertEqual(response.text, expected, file: file, line: line)
    }

    private func rows(_ body: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try expect("/v1/outline/rows", body, expected, file: file, line: line)
    }

    private func expansion(_ body: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try expect("/v1/outline/expansion", body, expected, file: file, line: line)
    }

    /// The `ranges` of each match of `query` among labels given as one flat root each ("0", "1", …).
    private func ranges(
        _ labels: [String], _ search: String, file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let nodes = labels.enumerated().map { #"{"id":\#($0.offset),"label":"\#($0.element)"}"# }.joined(separator: ",")
        let response = try post("/v1/outline/expansion", #"{"nodes":[\#(nodes)],"search":\#(search)}"#)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.text
    }

    // MARK: Whole answers

    func testRowsShowTheMatchesAndTheWayToThemOpened() throws {
        try rows("{\(picker),\"search\":{\"query\":\"rea\"}}", """
            {"rows":[\
            {"index":0,"id":"root","depth":0,"parent":null,"expandable":true,"expanded":true,"selected":false,"match":null},\
            {"index":1,"id":"docs","depth":1,"parent":"root","expandable":true,"expanded":true,"selected":false,"match":null},\
            {"index":2,"id":"readme","depth":2,"parent":"docs","expandable":false,"expanded":false,"selected":false,"match":{"ranges":[[0,3]]}},\
            {"index":3,"id":"guides","depth":2,"parent":"docs","expandable":true,"expanded":true,"selected":false,"match":null},\
            {"index":4,"id":"intro","depth":3,"parent":"guides","expandable":false,"expanded":false,"selected":false,"match":{"ranges":[[7,10]]}}],\
            "totalRows":5,"selectedRow":null,"matchCount":2,"noSelection":{"selected":true}}
            """)
    }

    func testRowsHideAMatchsOtherDescendantsAndIgnoreExpanded() throws {
        // Only "docs" matches: it is not opened, so "readme" and "guides" are hidden; "expanded" changes nothing.
        try rows("{\(picker),\"expanded\":[\"src\"],\"selection\":\"intro\",\"search\":{\"query\":\"D\",\"mode\":\"prefix\"}}", """
            {"rows":[\
            {"index":0,"id":"root","depth":0,"parent":null,"expandable":true,"expanded":true,"selected":false,"match":null},\
            {"index":1,"id":"docs","depth":1,"parent":"root","expandable":true,"expanded":false,"selected":false,"match":{"ranges":[[0,1]]}}],\
            "totalRows":2,"selectedRow":null,"matchCount":1,"noSelection":{"selected":false}}
            """)
        try rows("{\(picker),\"selection\":\"intro\",\"offset\":1,\"limit\":1,\"includeNoSelection\":false,\"search\":{\"query\":\"i\"}}", """
            {"rows":[\
            {"index":1,"id":"docs","depth":1,"parent":"root","expandable":true,"expanded":true,"selected":false,"match":null}],\
            "totalRows":6,"selectedRow":3,"matchCount":3}
            """)
    }

    func testNoMatchIsA200WithNoRows() throws {
        try rows("{\(picker),\"search\":{\"query\":\"zzz\"}}",
                 #"{"rows":[],"totalRows":0,"selectedRow":null,"matchCount":0,"noSelection":{"selected":true}}"#)
        try expansion("{\(picker),\"search\":{\"query\":\"zzz\"}}", #"{"expand":[],"matches":[]}"#)
    }

    func testExpansionListsTheAncestorsAndTheMatchesWithoutPaths() throws {
        try expansion("{\(picker),\"search\":{\"query\":\"read first\",\"mode\":\"words\"}}",
                      #"{"expand":["root","docs","guides"],"matches":[{"id":"intro","ranges":[[7,11],[12,17]]}]}"#)
        // The flat form, another label key; labels that are absent, null or not strings never match.
        let flat = """
            {"parentKey":"up","nodes":[{"id":3,"up":1,"name":"Main.swift"},{"id":1,"name":"Sources"},\
            {"id":2,"up":1,"name":null},{"id":4,"up":2,"name":7},{"id":5,"up":2},{"id":6,"up":2,"name":"main"}],\
            "search":{"query":"MAIN","labelKey":"name","caseSensitive":false}}
            """
        try expansion(flat, #"{"expand":[1,2],"matches":[{"id":3,"ranges":[[0,4]]},{"id":6,"ranges":[[0,4]]}]}"#)
        try expansion(flat.replacingOccurrences(of: #""caseSensitive":false"#, with: #""caseSensitive":true"#),
                      #"{"expand":[],"matches":[]}"#)
        // A null search is no search.
        try expansion("{\(picker),\"search\":null,\"selection\":\"main\"}",
                      #"{"expand":["root","src"],"paths":[{"id":"main","found":true,"path":["root","src","main"]}]}"#)
    }

    // MARK: Folding and ranges

    func testFoldingCaseAndDiacritics() throws {
        let labels = ["caf\\u00e9", "cafe\\u0301", "CAFÉ", "Cafe"]
        XCTAssertEqual(try ranges(labels, #"{"query":"cafe"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,4]]},{"id":1,"ranges":[[0,5]]},{"id":2,"ranges":[[0,4]]},{"id":3,"ranges":[[0,4]]}]}"#)
        // A highlight never splits a letter from its accents; with diacriticSensitive, e does not match inside é.
        XCTAssertEqual(try ranges(labels, #"{"query":"e"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[3,4]]},{"id":1,"ranges":[[3,5]]},{"id":2,"ranges":[[3,4]]},{"id":3,"ranges":[[3,4]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"e","diacriticSensitive":true}"#),
                       #"{"expand":[],"matches":[{"id":3,"ranges":[[3,4]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"caf\u00e9","diacriticSensitive":true}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,4]]},{"id":1,"ranges":[[0,5]]},{"id":2,"ranges":[[0,4]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"Caf","caseSensitive":true}"#),
                       #"{"expand":[],"matches":[{"id":3,"ranges":[[0,3]]}]}"#)
    }

    func testFullCaseFoldingMapsBackToWholeScalars() throws {
        // ß folds to ss: both s match inside one scalar, one range; ẞ too; "ss" finds both forms.
        XCTAssertEqual(try ranges(["Straße", "STRAẞE", "Strasse"], #"{"query":"s"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,1],[4,5]]},{"id":1,"ranges":[[0,1],[4,5]]},{"id":2,"ranges":[[0,1],[4,5],[5,6]]}]}"#)
        XCTAssertEqual(try ranges(["Straße", "Strasse"], #"{"query":"SS"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[4,5]]},{"id":1,"ranges":[[4,6]]}]}"#)
        // İ folds to i and a combining dot (removed unless diacriticSensitive); ı folds to itself.
        XCTAssertEqual(try ranges(["İstanbul", "ıstanbul", "istanbul"], #"{"query":"ist"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,3]]},{"id":2,"ranges":[[0,3]]}]}"#)
        // Final sigma folds to σ.
        XCTAssertEqual(try ranges(["ΣΊΣΥΦΟΣ", "σίσυφος"], #"{"query":"σισυφος"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,7]]},{"id":1,"ranges":[[0,7]]}]}"#)
    }

    func testRangesAreUTF16CodeUnits() throws {
        // 𐐀 (Deseret, astral) is two UTF-16 code units and folds to 𐐨; the emoji with a modifier is four.
        XCTAssertEqual(try ranges(["𐐀b 👍🏽 b", "a👨‍👩‍👧b"], #"{"query":"b"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[2,3],[9,10]]},{"id":1,"ranges":[[9,10]]}]}"#)
        XCTAssertEqual(try ranges(["𐐀b 👍🏽 b"], #"{"query":"𐐨B"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,3]]}]}"#)
    }

    func testModes() throws {
        let labels = ["banana", "ana", "an apple"]
        // substring: non-overlapping, left to right.
        XCTAssertEqual(try ranges(labels, #"{"query":"ana","mode":"substring"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[1,4]]},{"id":1,"ranges":[[0,3]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"an","mode":"prefix"}"#),
                       #"{"expand":[],"matches":[{"id":1,"ranges":[[0,2]]},{"id":2,"ranges":[[0,2]]}]}"#)
        // words: every term, any order; overlapping ranges merge, touching ones stay apart.
        XCTAssertEqual(try ranges(labels, #"{"query":"apple  an","mode":"words"}"#),
                       #"{"expand":[],"matches":[{"id":2,"ranges":[[0,2],[3,8]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"nan\u3000ba","mode":"words"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,2],[2,5]]}]}"#)
        XCTAssertEqual(try ranges(labels, #"{"query":"ban ana","mode":"words"}"#),
                       #"{"expand":[],"matches":[{"id":0,"ranges":[[0,4]]}]}"#)
        // A term that folds to nothing is dropped.
        XCTAssertEqual(try ranges(labels, #"{"query":"\u0301 apple","mode":"words"}"#),
                       #"{"expand":[],"matches":[{"id":2,"ranges":[[3,8]]}]}"#)
    }

    // MARK: Problems

    private func problems(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let response = try post(path, body)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let errors = response.json["errors"] as? [[String: Any]] ?? []
        return errors.map { "\($0["pointer"] as? String ?? "?"): \($0["detail"] as? String ?? "?")" }
    }

    func testEveryProblemWithItsPointer() throws {
        let long = String(repeating: "é", count: 257)
        let longKey = String(repeating: "k", count: 257)
        for path in ["/v1/outline/rows", "/v1/outline/expansion"] {
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":\"rea\"}"), ["/search: must be an object"])
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{}}"), ["/search/query: is required"])
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{\"query\":\"\"}}"),
                           ["/search/query: must have 1 to 256 Unicode scalars"])
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{\"query\":\"\(long)\"}}"),
                           ["/search/query: must have 1 to 256 Unicode scalars"])
            XCTAssertEqual(try problems(path, """
                {\(picker),"search":{"query":7,"labelKey":"\(longKey)","mode":"fuzzy","caseSensitive":"no","diacriticSensitive":1}}
                """), [
                    "/search/query: must be a string",
                    "/search/labelKey: must be at most 256 bytes of UTF-8",
                    "/search/mode: must be one of \"substring\", \"prefix\", \"words\"",
                    "/search/caseSensitive: must be true or false",
                    "/search/diacriticSensitive: must be true or false",
                ])
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{\"query\":\"a\",\"labelKey\":[]}}"),
                           ["/search/labelKey: must be a string"])
            // A query that folds to nothing; in words mode, a query with no term left.
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{\"query\":\"\\u0301\\u0308\"}}"), [
                "/search/query: folds to nothing (combining marks are removed unless diacriticSensitive is true)",
            ])
            XCTAssertEqual(try problems(path, "{\(picker),\"search\":{\"query\":\" \\u0301 \\t\",\"mode\":\"words\"}}"), [
                "/search/query: has no term left after folding (combining marks are removed unless diacriticSensitive is true)",
            ])
            // Problems in the tree and in the search are reported together.
            XCTAssertEqual(try problems(path, #"{"nodes":[{"id":1},{"id":1}],"search":{"query":""}}"#), [
                "/nodes/1/id: duplicates the id 1 first given at /nodes/0/id",
                "/search/query: must have 1 to 256 Unicode scalars",
            ])
        }
        // With diacriticSensitive the marks stay, so the same query is valid.
        XCTAssertEqual(try post("/v1/outline/rows", "{\(picker),\"search\":{\"query\":\"\\u0301\",\"diacriticSensitive\":true}}").status, 200)
        // 256 scalars are accepted.
        XCTAssertEqual(try post("/v1/outline/rows", "{\(picker),\"search\":{\"query\":\"\(long.dropLast())\"}}").status, 200)

        let conflict = "/search: cannot be sent together with selection or selections; send one of them"
        XCTAssertEqual(try problems("/v1/outline/expansion", "{\(picker),\"search\":{\"query\":\"a\"},\"selection\":\"main\"}"), [conflict])
        XCTAssertEqual(try problems("/v1/outline/expansion", "{\(picker),\"search\":{\"query\":\"a\"},\"selections\":[]}"), [conflict])
        XCTAssertEqual(try problems("/v1/outline/expansion", "{\(picker),\"search\":{\"query\":\"\"},\"selection\":\"a\",\"selections\":[]}"), [
            "/search/query: must have 1 to 256 Unicode scalars", conflict,
            "/selections: cannot be sent together with selection; send one of them",
        ])
        // Rows take a selection along with a search.
        XCTAssertEqual(try post("/v1/outline/rows", "{\(picker),\"search\":{\"query\":\"a\"},\"selection\":\"main\"}").status, 200)
    }

    func testAnswersStayWithinTheAnswerBound() throws {
        // 300 labels of 4,000 letters, each letter a match: about 14 MB of ranges for a body of 1.2 MB, past
        // 1 × the body + 1 MiB.
        let server = try LiveServer(service: ServiceConfiguration(maxAnswerFactor: 1))
        func post(_ path: String, _ body: String) throws -> TestResponse { try server.request("POST", path, json: body) }
        let label = String(repeating: "a", count: 4_000)
        let nodes = (0..<300).map { #"{"id":\#($0),"label":"\#(label)"}"# }.joined(separator: ",")
        for path in ["/v1/outline/rows", "/v1/outline/expansion"] {
            let response = try post(path, #"{"nodes":[\#(nodes)],"search":{"query":"a"}}"#)
            XCTAssertEqual(response.status, 422, String(response.text.prefix(300)))
            let errors = response.json["errors"] as? [[String: Any]] ?? []
            XCTAssertEqual(errors.first?["pointer"] as? String, "")
            XCTAssertTrue((response.json["detail"] as? String ?? "").contains("The answer would be larger than"), response.text)
            // Asking for less (a longer query) is answered.
            XCTAssertEqual(try post(path, #"{"nodes":[\#(nodes)],"search":{"query":"\#(String(repeating: "a", count: 200))"}}"#).status, 200)
        }
        // A window of rows keeps the answer small whatever matches.
        let window = try post("/v1/outline/rows", #"{"nodes":[\#(nodes)],"search":{"query":"a"},"offset":10,"limit":2}"#)
        XCTAssertEqual(window.status, 200)
        XCTAssertEqual(window.json["matchCount"] as? Int, 300)
        XCTAssertEqual((window.json["rows"] as? [Any])?.count, 2)
    }
}

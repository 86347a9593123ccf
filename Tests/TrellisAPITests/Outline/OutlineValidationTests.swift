import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

final class OutlineValidationTests: XCTestCase {
    private let service = TrellisService()

    /// Posts `body` and returns the 422's (pointer, detail) pairs in order.
    private func problems(_ body: String, at path: String = "/v1/outline/expansion",
                          file: StaticString = #filePath, line: UInt = #line) -> [(pointer: String, detail: String)] {
        let response = call(service, "POST", path, json: body)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let errors = response.json["errors"] as? [[String: Any]] ?? []
        return errors.map { ($0["pointer"] as? String ?? "?", $0["detail"] as? String ?? "?") }
    }

    private func pointers(_ body: String, at path: String = "/v1/outline/expansion",
                          file: StaticString = #filePath, line: UInt = #line) -> [String] {
        problems(body, at: path, file: file, line: line).map(\.pointer)
    }

    private let both = ["/v1/outline/expansion", "/v1/outline/rows"]

    func testBodyAndNodesShape() {
        for path in both {
            XCTAssertEqual(pointers("[]", at: path), [""])
            XCTAssertEqual(pointers("{}", at: path), ["/nodes"])
            XCTAssertEqual(pointers(#"{"nodes":{"id":1}}"#, at: path), ["/nodes"])
            XCTAssertEqual(pointers(#"{"nodes":null}"#, at: path), ["/nodes"])
            XCTAssertEqual(pointers(#"{"parentKey":"p","nodes":"x"}"#, at: path), ["/nodes"])
        }
    }

    func testKeysMustBeStringsAndDistinct() {
        XCTAssertEqual(pointers(#"{"idKey":1,"childrenKey":[],"parentKey":true,"nodes":[]}"#), ["/idKey", "/childrenKey", "/parentKey"])
        XCTAssertEqual(problems(#"{"idKey":"k","parentKey":"k","nodes":[]}"#).map(\.pointer), ["/parentKey"])
        XCTAssertEqual(problems(#"{"childrenKey":"id","nodes":[]}"#).first?.detail, "must differ from idKey")
        // In flat form childrenKey is not read, so it may equal idKey.
        XCTAssertEqual(call(service, "POST", "/v1/outline/expansion", json: #"{"childrenKey":"id","parentKey":"p","nodes":[]}"#).status, 200)
    }

    func testNestedNodeProblemsAllReportedWithPointers() {
        let body = """
            {"nodes":[{"id":"a","children":[{"id":"b"},7,{"name":"c"},{"id":1.5},{"id":"a"},{"id":9007199254740993},\
            {"id":"d","children":{"id":"e"}},{"id":"f","children":"g"},{"id":true,"children":[{"id":"b"}]}]},null],\
            "selection":"a"}
            """
        let found = problems(body)
        XCTAssertEqual(found.map(\.pointer), [
            "/nodes/0/children/1",
            "/nodes/0/children/2/id",
            "/nodes/0/children/3/id",
            "/nodes/0/children/4/id",
            "/nodes/0/children/5/id",
            "/nodes/0/children/6/children",
            "/nodes/0/children/7/children",
            "/nodes/0/children/8/id",
            "/nodes/0/children/8/children/0/id",
            "/nodes/1",
        ])
        XCTAssertEqual(found.map(\.detail), [
            "must be an object",
            "is required",
            "must be a string or an integer",
            #"duplicates the id "a" first given at /nodes/0/id"#,
            "must be a string or an integer with magnitude at most 2^53",
            "must be an array or null",
            "must be an array or null",
            "must be a string or an integer",
            #"duplicates the id "b" first given at /nodes/0/children/0/id"#,
            "must be an object",
        ])
    }

    func testFlatNodeProblemsAllReportedWithPointers() {
        let body = """
            {"parentKey":"parent","nodes":[{"id":"a","parent":"z"},"b",{"parent":"a"},{"id":[]},{"id":"a","parent":null},\
            {"id":"c","parent":1},{"id":"d","parent":{}},{"id":1,"parent":"c"}]}
            """
        let found = problems(body)
        XCTAssertEqual(found.map(\.pointer), [
            "/nodes/1", "/nodes/2/id", "/nodes/3/id", "/nodes/4/id",
            "/nodes/0/parent", "/nodes/6/parent",
            // c → 1 → c: one problem per cycle, at its first node's parent.
            "/nodes/5/parent",
        ])
        XCTAssertEqual(found[3].detail, #"duplicates the id "a" first given at /nodes/0/id"#)
        XCTAssertEqual(found[4].detail, #"names the parent "z", which is not the id of any node"#)
        XCTAssertEqual(found[5].detail, "must be a string or an integer")
        XCTAssertEqual(found[6].detail, #"closes a cycle of parents (each node → its parent: "c" → 1 → "c"), so none of them reaches a root"#)
    }

    func testCyclesOnePointerEach() {
        // Cycles a ↔ b and the self-parent e; d hangs off the first cycle and is not reported; f is fine.
        let body = #"{"parentKey":"up","nodes":[{"id":"d","up":"a"},{"id":"f"},{"id":"b","up":"a"},{"id":"e","up":"e"},{"id":"a","up":"b"}]}"#
        let found = problems(body, at: "/v1/outline/rows")
        XCTAssertEqual(found.map(\.pointer), ["/nodes/2/up", "/nodes/3/up"])
        XCTAssertEqual(found.map(\.detail), [
            #"closes a cycle of parents (each node → its parent: "b" → "a" → "b"), so none of them reaches a root"#,
            #"closes a cycle of parents (each node → its parent: "e" → "e"), so none of them reaches a root"#,
        ])
    }

    func testLongCycleDetailIsShortened() {
        let nodes = (0..<20).map { #"{"id":\#($0),"p":\#(($0 + 1) % 20)}"# }.joined(separator: ",")
        let found = problems(#"{"parentKey":"p","nodes":[\#(nodes)]}"#)
        XCTAssertEqual(found.map(\.pointer), ["/nodes/0/p"])
        XCTAssertEqual(found.first?.detail, "closes a cycle of parents (each node → its parent: 0 → 1 → 2 → 3 → 4 → 5 → 6 → 7 → … (20 nodes) → 0), so none of them reaches a root")
    }

    func testEveryProblemIsCountedAndTheFirst100Listed() {
        let nodes = (0..<300).map { #"{"id":\#($0),"p":\#($0)}"# }.joined(separator: ",")
        let response = call(service, "POST", "/v1/outline/expansion", json: #"{"parentKey":"p","nodes":[\#(nodes)]}"#)
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.json["detail"] as? String, "The request body has 300 problems; see errors (the first 100 are listed).")
        let errors = response.json["errors"] as? [[String: Any]] ?? []
        XCTAssertEqual(errors.compactMap { $0["pointer"] as? String }, (0..<100).map { "/nodes/\($0)/p" })
    }

    func testPointersEscapeCustomKeys() {
        XCTAssertEqual(pointers(#"{"idKey":"a/b~c","nodes":[{"id":1}]}"#), ["/nodes/0/a~1b~0c"])
        XCTAssertEqual(pointers(#"{"idKey":"k","parentKey":"up/","nodes":[{"k":1,"up/":2}]}"#), ["/nodes/0/up~1"])
    }

    func testSelectionProblems() {
        XCTAssertEqual(pointers(OutlineExamples.bodies(#""selection":"readme","selections":["intro"]"#)[0]), ["/selections"])
        XCTAssertEqual(pointers(OutlineExamples.bodies(#""selection":{"id":"readme"}"#)[1]), ["/selection"])
        XCTAssertEqual(pointers(OutlineExamples.bodies(#""selections":"readme""#)[0]), ["/selections"])
        XCTAssertEqual(pointers(OutlineExamples.bodies(#""selections":["readme",false,1.5,"intro"]"#)[1]),
                       ["/selections/1", "/selections/2"])
        let tooMany = "[" + (0...OutlineLimits.maxSelections).map(String.init).joined(separator: ",") + "]"
        let found = problems(OutlineExamples.bodies(#""selections":\#(tooMany)"#)[0])
        XCTAssertEqual(found.map(\.pointer), ["/selections"])
        XCTAssertEqual(found.first?.detail, "must have at most 1000 elements")
        // Tree and request problems come together.
        XCTAssertEqual(pointers(#"{"nodes":[{}],"selection":[]}"#), ["/nodes/0/id", "/selection"])
    }

    func testPathsLimit() {
        // A chain of 5,001 nodes and 1,000 selections of its deepest node: 5,001,000 path ids, over the limit.
        let selections = "[" + Array(repeating: #""n0""#, count: 1_000).joined(separator: ",") + "]"
        let found = problems(OutlineJSON.flatChain(count: 5_001, #""selections":\#(selections)"#))
        XCTAssertEqual(found.map(\.pointer), ["/selections"])
        XCTAssertEqual(found.first?.detail,
                       "would need paths of 5001000 ids in all, more than the limit of 5000000; send fewer or shallower selections")
    }

    func testRowsRequestProblems() {
        let body = OutlineExamples.bodies(#""selection":1.5,"expanded":["root",null,{}],"offset":-1,"limit":-3,"includeNoSelection":"yes""#)[0]
        let found = problems(body, at: "/v1/outline/rows")
        XCTAssertEqual(found.map(\.pointer), ["/selection", "/expanded/1", "/expanded/2", "/offset", "/limit", "/includeNoSelection"])
        XCTAssertEqual(found[3].detail, "must be ≥ 0")
        XCTAssertEqual(pointers(OutlineExamples.bodies(#""expanded":"root","offset":1.5,"limit":"2""#)[1], at: "/v1/outline/rows"),
                       ["/expanded", "/offset", "/limit"])
    }

    func testNestedDepthLimitAnswers400WithFlatFormAdvice() {
        for path in both {
            XCTAssertEqual(call(service, "POST", path, json: OutlineJSON.nestedChain(levels: 511, #""selection":510"#)).status, 200)
            for levels in [512, 2_000] {
                let response = call(service, "POST", path, json: OutlineJSON.nestedChain(levels: levels, #""selection":0"#))
                XCTAssertEqual(response.status, 400)
                XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
                XCTAssertEqual(response.json["detail"] as? String,
                               "The JSON nests deeper than 1024 levels. " + OutlineLimits.depthAdvice)
            }
        }
        // The same 2,000-level chain in flat form works.
        let flat = (0..<2_000).map { #"{"id":\#($0),"parent":\#($0 == 0 ? "null" : String($0 - 1))}"# }.joined(separator: ",")
        let response = call(service, "POST", "/v1/outline/expansion", json: #"{"parentKey":"parent","nodes":[\#(flat)],"selection":1999}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual((response.json["expand"] as? [Any])?.count, 1_999)
    }

    func testOtherStatuses() {
        for path in both {
            XCTAssertEqual(call(service, "POST", path, json: "{\"nodes\":[").status, 400)
            XCTAssertEqual(call(service, "POST", path, headers: [("Content-Type", "text/plain")]).status, 415)
            XCTAssertEqual(call(service, "GET", path).status, 405)
        }
    }
}

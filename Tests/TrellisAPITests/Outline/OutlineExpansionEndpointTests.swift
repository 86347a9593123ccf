import XCTest
@testable import TrellisAPI
import TrellisTestSupport

final class OutlineExpansionEndpointTests: XCTestCase {
    private let service = TrellisService()

    /// Posts `body` and checks the status and the whole response text.
    private func expect(_ body: String, _ expected: String, status: Int = 200, file: StaticString = #filePath, line: UInt = #line) {
        let response = call(service, "POST", "/v1/outline/expansion", json: body)
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.text, expected, file: file, line: line)
    }

    func testSeedExampleInBothForms() {
        for body in OutlineExamples.bodies(#""selection":"readme""#) {
            expect(body, #"{"expand":["root","docs"],"paths":[{"id":"readme","found":true,"path":["root","docs","readme"]}]}"#)
            let response = call(service, "POST", "/v1/outline/expansion", json: body)
            XCTAssertEqual(response.header("Content-Type"), "application/json")
        }
    }

    func testNoSelection() {
        for extra in ["", #""selection":null"#, #""selections":[]"#, #""selections":null"#, #""selection":null,"selections":[]"#] {
            for body in OutlineExamples.bodies(extra) {
                expect(body, #"{"expand":[],"paths":[]}"#)
            }
        }
    }

    func testSelectionNotFoundExpandsNothing() {
        for body in OutlineExamples.bodies(#""selection":"nope""#) {
            expect(body, #"{"expand":[],"paths":[{"id":"nope","found":false,"path":[]}]}"#)
        }
    }

    func testRootSelectionIsFoundAndExpandsNothing() {
        for body in OutlineExamples.bodies(#""selection":"other""#) {
            expect(body, #"{"expand":[],"paths":[{"id":"other","found":true,"path":["other"]}]}"#)
        }
    }

    func testDeepSelection() {
        for body in OutlineExamples.bodies(#""selection":"intro""#) {
            expect(body, #"{"expand":["root","docs","guides"],"paths":[{"id":"intro","found":true,"path":["root","docs","guides","intro"]}]}"#)
        }
    }

    func testSeveralSelectionsShareAncestorsInPreOrder() {
        for body in OutlineExamples.bodies(#""selections":["main","intro","nope","readme","main"]"#) {
            expect(body, """
                {"expand":["root","docs","guides","src"],"paths":[\
                {"id":"main","found":true,"path":["root","src","main"]},\
                {"id":"intro","found":true,"path":["root","docs","guides","intro"]},\
                {"id":"nope","found":false,"path":[]},\
                {"id":"readme","found":true,"path":["root","docs","readme"]},\
                {"id":"main","found":true,"path":["root","src","main"]}]}
                """)
        }
    }

    func testStringAndIntegerIdsAreDistinctAndReturnedAsGiven() {
        let nodes = #"[{"id":1,"children":[{"id":"1","children":[{"id":-9007199254740992},{"id":"é\"\\"}]}]}]"#
        expect(#"{"nodes":\#(nodes),"selections":["1",1,-9007199254740992,"é\"\\",2]}"#, """
            {"expand":[1,"1"],"paths":[{"id":"1","found":true,"path":[1,"1"]},{"id":1,"found":true,"path":[1]},\
            {"id":-9007199254740992,"found":true,"path":[1,"1",-9007199254740992]},\
            {"id":"é\\"\\\\","found":true,"path":[1,"1","é\\"\\\\"]},{"id":2,"found":false,"path":[]}]}
            """)
    }

    func testCustomKeysInBothForms() {
        let nested = #"{"idKey":"key","childrenKey":"items","nodes":[{"key":"a","id":"x","items":[{"key":"b","children":[{"key":"z"}]}]}],"selection":"b"}"#
        let flat = #"{"idKey":"key","parentKey":"up","childrenKey":"ignored","nodes":[{"key":"b","up":"a","parent":"q"},{"key":"a","items":5}],"selection":"b"}"#
        for body in [nested, flat] {
            expect(body, #"{"expand":["a"],"paths":[{"id":"b","found":true,"path":["a","b"]}]}"#)
        }
    }

    func testDuplicateKeysInANodeLastOneWins() {
        let body = #"{"nodes":[{"id":"x","id":"a","children":5,"children":[{"id":"b"}]}],"selection":"b"}"#
        expect(body, #"{"expand":["a"],"paths":[{"id":"b","found":true,"path":["a","b"]}]}"#)
    }

    func testEmptyTree() {
        expect(#"{"nodes":[],"selection":"a"}"#, #"{"expand":[],"paths":[{"id":"a","found":false,"path":[]}]}"#)
        expect(#"{"parentKey":"p","nodes":[]}"#, #"{"expand":[],"paths":[]}"#)
    }
}

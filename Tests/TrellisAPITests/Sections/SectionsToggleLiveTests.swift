import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// The sections toggle over a real socket: the seed's example, a 422 and a 413.
final class SectionsToggleLiveTests: XCTestCase {
    func testSeedExampleOverHTTP() throws {
        let server = try LiveServer()
        let response = try server.request("POST", SectionsTestJSON.path, json: """
            {"sections":[{"id":"食べ物","items":["明太子パスタ","ショートケーキ","プロシュート","パウンドケーキ"]},
                         {"id":"飲み物","items":["コーラ","ルイボスティー"]}],
             "expanded":["食べ物"],"toggle":"飲み物"}
            """)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertNotNil(response.header("X-Request-Id"))
        SectionsTestJSON.assertBody(
            response,
            #"{"expanded":["食べ物","飲み物"],"changed":["飲み物"],"sections":["#
                + #"{"id":"食べ物","expanded":true,"headerDisabled":false,"icon":"chevron.up","showDivider":false,"items":["明太子パスタ","ショートケーキ","プロシュート","パウンドケーキ"],"itemCount":4},"#
                + #"{"id":"飲み物","expanded":true,"headerDisabled":false,"icon":"chevron.up","showDivider":false,"items":["コーラ","ルイボスティー"],"itemCount":2}]}"#
        )
    }

    func testValidationProblemOverHTTP() throws {
        let server = try LiveServer()
        let response = try server.request("POST", SectionsTestJSON.path, json: #"{"sections":[{"id":"a"}],"mode":"single","actions":[{"type":"expandAll"}]}"#)
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(SectionsTestJSON.problems(response), [
            "/actions/0/type: expandAll is not allowed in single mode, where at most one section is open",
        ])
    }

    func testBodyOverTheLimitIs413() throws {
        let server = try LiveServer(http: HTTPServerConfiguration(maxBodyBytes: 1024))
        let items = String(repeating: #""item","#, count: 200)
        let response = try server.request("POST", SectionsTestJSON.path, json: #"{"sections":[{"id":"a","items":[\#(items)"last"]}]}"#)
        XCTAssertEqual(response.status, 413)
    }
}

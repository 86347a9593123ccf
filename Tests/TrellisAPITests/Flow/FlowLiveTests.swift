import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// POST /v1/flow/layout on the real server, over a socket.
final class FlowLiveTests: XCTestCase {
    func testSeedExampleOverHTTP() throws {
        let server = try LiveServer()
        let response = try server.request("POST", "/v1/flow/layout", json: FlowSeedExample.request)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertNotNil(response.header("X-Request-Id"))
        XCTAssertEqual(response.text, FlowSeedExample.response)
    }
}

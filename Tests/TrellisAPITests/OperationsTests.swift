import XCTest
@testable import TrellisAPI

final class OperationsTests: XCTestCase {
    func testHealthzAnswersOK() throws {
        let server = try LiveServer()
        let response = try server.request("GET", "/healthz")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"status":"ok"}"#)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
    }
}

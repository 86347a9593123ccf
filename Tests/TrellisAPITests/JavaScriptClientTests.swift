import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// GET /clients/trellis.mjs: the JavaScript client (clients/js/trellis.mjs) embedded at build time.
/// Its behaviour against a live server is tested by clients/js/trellis.test.mjs (`make js-client-test`).
final class JavaScriptClientTests: XCTestCase {
    private let service = TrellisService()

    private static var moduleOnDisk: [UInt8] {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repository.appendingPathComponent("clients/js/trellis.mjs")
        return Array((try? Data(contentsOf: url)) ?? Data())
    }

    func testServesTheModuleAsJavaScript() {
        let response = call(service, "GET", "/clients/trellis.mjs")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
        XCTAssertFalse(Self.moduleOnDisk.isEmpty)
        XCTAssertEqual(response.body, Self.moduleOnDisk, "the served module is not clients/js/trellis.mjs")
    }

    func testLiveGetAndHead() throws {
        let server = try LiveServer()
        let get = try server.request("GET", "/clients/trellis.mjs")
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(get.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(get.body, Self.moduleOnDisk)
        let head = try server.request("HEAD", "/clients/trellis.mjs")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), String(Self.moduleOnDisk.count))
        XCTAssertTrue(head.body.isEmpty)
    }

    func testIndexListsTheModule() {
        let index = call(service, "GET", "/").json
        let endpoints = index["endpoints"] as? [[String: String]] ?? []
        XCTAssertTrue(endpoints.contains(["method": "GET", "path": "/clients/trellis.mjs"]), "\(endpoints)")
    }

    func testThePlaygroundMayLoadItFromItsOwnOrigin() {
        let policy = call(service, "GET", "/playground").header("Content-Security-Policy") ?? ""
        XCTAssertTrue(policy.contains("script-src 'self' 'sha256-"), policy)
    }
}

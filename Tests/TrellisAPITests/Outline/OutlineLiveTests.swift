import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

final class OutlineLiveTests: XCTestCase {
    func testBothEndpointsOverHTTPAndBodyLimits() throws {
        let server = try LiveServer(http: HTTPServerConfiguration(maxBodyBytes: 1 << 20))
        let body = OutlineExamples.bodies(#""selection":"readme""#)[1]
        let expansion = try server.request("POST", "/v1/outline/expansion", json: body)
        XCTAssertEqual(expansion.status, 200)
        XCTAssertEqual(expansion.text, #"{"expand":["root","docs"],"paths":[{"id":"readme","found":true,"path":["root","docs","readme"]}]}"#)
        let rows = try server.request("POST", "/v1/outline/rows", json: body + "")
        XCTAssertEqual(rows.status, 200)
        XCTAssertEqual(rows.json["selectedRow"] as? Int, 2)

        // Past --max-body-bytes → 413; a chain that fits → 200.
        let tooLarge = try server.request("POST", "/v1/outline/expansion", json: OutlineJSON.flatChain(count: 40_000, #""selection":"n0""#))
        XCTAssertEqual(tooLarge.status, 413)
        let fits = try server.request("POST", "/v1/outline/expansion", json: OutlineJSON.flatChain(count: 20_000, #""selection":"n0""#))
        XCTAssertEqual(fits.status, 200)
        XCTAssertEqual((fits.json["expand"] as? [Any])?.count, 19_999)
    }
}

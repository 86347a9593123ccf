import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// GET /playground: the page embedded at build time. Its behaviour in a browser is
/// tested by scripts/playground/browser_test.py (`make browser-test`).
final class PlaygroundTests: XCTestCase {
    private let service = TrellisService()

    private static var pageOnDisk: [UInt8] {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repository.appendingPathComponent("Sources/TrellisAPI/Resources/playground.html")
        return Array((try? Data(contentsOf: url)) ?? Data())
    }

    func testServesThePageAsHTML() {
        let response = call(service, "GET", "/playground")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
        XCTAssertFalse(Self.pageOnDisk.isEmpty)
        XCTAssertEqual(response.body, Self.pageOnDisk, "the served page is not Sources/TrellisAPI/Resources/playground.html")
        XCTAssertTrue(response.text.contains("<title>Trellis playground</title>"))
    }

    func testThePageLoadsNothingButItself() {
        let page = call(service, "GET", "/playground").text
        for outside in ["<script src", "<link rel=\"stylesheet\"", "@import", "url(http", "src=\"http", "href=\"http"] {
            XCTAssertFalse(page.contains(outside), "the playground must work offline, but it has \(outside)")
        }
        let policy = call(service, "GET", "/playground").header("Content-Security-Policy") ?? ""
        XCTAssertTrue(policy.hasPrefix("default-src 'none';"), policy)
        XCTAssertTrue(policy.contains("connect-src 'self';"), "the page served by Trellis calls only its own origin: \(policy)")
    }

    /// The page's own script runs by its hash, never through 'unsafe-inline' (CSP3 §8.4).
    func testThePolicyAllowsTheInlineScriptByItsHashOnly() throws {
        let policy = call(service, "GET", "/playground").header("Content-Security-Policy") ?? ""
        let scripts = try XCTUnwrap(policy.split(separator: ";").first { $0.hasPrefix(" script-src") })
        XCTAssertFalse(policy.contains("unsafe-inline") && scripts.contains("unsafe-inline"), policy)
        XCTAssertFalse(scripts.contains("unsafe-eval"), policy)
        let page = String(decoding: Self.pageOnDisk, as: UTF8.self)
        let start = try XCTUnwrap(page.range(of: "<script>")), end = try XCTUnwrap(page.range(of: "</script>"))
        let script = Array(page[start.upperBound..<end.lowerBound].utf8)
        XCTAssertEqual(page.components(separatedBy: "<script").count, 2, "one inline script")
        XCTAssertEqual(String(scripts), " script-src 'self' 'sha256-\(ContentDigest.base64(try XCTUnwrap(ContentDigest.sha256(script))))'")
    }

    /// The paragraph panel offers every `textWrap` value the service takes (openapi.yaml's TextWrap), the first the default.
    func testTheParagraphPanelOffersEveryTextWrap() throws {
        let page = call(service, "GET", "/playground").text
        let select = try XCTUnwrap(page.range(of: #"<select data-control="textWrap">"#))
        let end = try XCTUnwrap(page.range(of: "</select>", range: select.upperBound..<page.endIndex))
        let options = page[select.upperBound..<end.lowerBound].components(separatedBy: "<option>").dropFirst()
            .map { $0.replacingOccurrences(of: "</option>", with: "") }
        XCTAssertEqual(options, ["wrap", "balance", "pretty", "stable"])
        XCTAssertTrue(page.contains("textPanel.control('textWrap'"), "the control changes the request")
        let withFonts = TestFonts.service()
        for value in options.dropFirst() {
            let response = call(
                withFonts, "POST", "/v1/text/layout",
                json: #"{"font":{"family":"sans-serif","size":16},"texts":["a b c"],"width":20,"textWrap":"\#(value)"}"#)
            XCTAssertEqual(response.status, 200, value)
        }
    }

    func testHeadOptionsAndWrongMethod() throws {
        let server = try LiveServer()
        let head = try server.request("HEAD", "/playground")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), String(Self.pageOnDisk.count))
        XCTAssertEqual(head.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(head.body.isEmpty)

        let options = call(service, "OPTIONS", "/playground")
        XCTAssertEqual(options.status, 204)
        XCTAssertEqual(options.header("Allow"), "GET, HEAD, OPTIONS")

        let post = call(service, "POST", "/playground", json: "{}")
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD, OPTIONS")
    }

    func testIndexLinksThePlayground() {
        let index = call(service, "GET", "/").json
        XCTAssertEqual(index["playground"] as? String, "/playground")
        let endpoints = index["endpoints"] as? [[String: String]] ?? []
        XCTAssertTrue(endpoints.contains(["method": "GET", "path": "/playground"]), "\(endpoints)")
    }

    func testMetricsCountThePlaygroundAsItsOwnRoute() {
        let service = TrellisService()
        _ = call(service, "GET", "/playground")
        let metrics = call(service, "GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"trellis_requests_total{route="/playground",method="GET",status="200"} 1"#), metrics)
    }
}

import Foundation
import TrellisServer
import XCTest
import TrellisTestSupport

/// Oversized and malformed request lines and headers. Up to the per-connection memory
/// (256 KiB) Trellis answers them; past it, and for some protocol errors, libmicrohttpd answers
/// before Trellis sees the request (docs/limits.md), and the server stays healthy.
final class HostileHeaderTests: HostileTestCase {
    private let flow = Hostile.endpoints[2]

    private func send(_ server: LiveServer, _ request: String) throws -> TestResponse {
        let connection = try server.connect()
        try connection.send(request)
        return try connection.readResponse()
    }

    func testA64KiBHeaderIsAnsweredByTrellis() throws {
        let server = try Hostile.server()
        let big = String(repeating: "h", count: 64 << 10)
        XCTAssertEqual(try send(server, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n").status, 200)
        for endpoint in Hostile.endpoints {
            let response = try server.request("POST", endpoint.path, json: endpoint.valid, headers: [("X-Big", big)])
            XCTAssertEqual(response.status, 200, endpoint.path)
        }
        // A 64 KiB request id is not echoed; one is generated.
        let id = try server.request("GET", "/healthz", headers: [("X-Request-Id", big)]).header("X-Request-Id")
        XCTAssertNotNil(id)
        XCTAssertLessThan(id?.count ?? .max, 129)
        assertHealthy(server)
    }

    /// The default connection memory (32 KiB) takes the heads clients send, cookies included, up
    /// to 16 KB, the size Node's own servers accept (docs/limits.md).
    func testTheDefaultConnectionMemoryTakesA16KBHead() throws {
        let server = try Hostile.server(connectionMemory: HTTPServerConfiguration().connectionMemoryLimit)
        let cookie = "session=" + String(repeating: "c", count: 15_800)
        for endpoint in Hostile.endpoints {
            let response = try server.request("POST", endpoint.path, json: endpoint.valid, headers: [("Cookie", cookie)])
            XCTAssertEqual(response.status, 200, endpoint.path)
        }
        assertHealthy(server)
    }

    /// Regression: the shim handed over only the first 64 header fields, so a Content-Type (or
    /// X-Request-Id, Origin) after them was lost and a valid request got a 415.
    func testEveryHeaderFieldReachesTheService() throws {
        let server = try Hostile.server()
        let filler = (0..<1000).map { "X-Filler-\($0): \(String(repeating: "f", count: 48))\r\n" }.joined()
        for endpoint in Hostile.endpoints {
            let connection = try server.connect()
            try connection.send(
                "POST \(endpoint.path) HTTP/1.1\r\nHost: x\r\n\(filler)Content-Type: application/json\r\n"
                    + "X-Request-Id: after-1000-fields\r\nContent-Length: \(endpoint.valid.utf8.count)\r\n\r\n\(endpoint.valid)")
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, "\(endpoint.path): \(response.text)")
            XCTAssertEqual(response.header("X-Request-Id"), "after-1000-fields")
        }
        assertHealthy(server)
    }

    func testA64KiBRequestLineIsAnsweredByTrellis() throws {
        let server = try Hostile.server()
        assertProblem(try send(server, "GET /\(String(repeating: "p", count: 64 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n"), 404)
        assertProblem(try send(server, "GET /\(String(repeating: "%41", count: 22 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n"), 404)
        for endpoint in Hostile.endpoints {
            let response = try server.request("POST", "\(endpoint.path)?q=\(String(repeating: "v", count: 64 << 10))", json: endpoint.valid)
            XCTAssertEqual(response.status, 200, endpoint.path)
        }
        // A query of 2,000 parameters is fine too.
        let query = (0..<2000).map { "k\($0)=v" }.joined(separator: "&")
        XCTAssertEqual(try send(server, "GET /healthz?\(query) HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        assertHealthy(server)
    }

    /// Past libmicrohttpd's per-connection memory (256 KiB) it refuses the request itself.
    func testHeadersPastTheConnectionMemoryAreRefusedByLibmicrohttpd() throws {
        let server = try Hostile.server()
        let huge = String(repeating: "h", count: 300 << 10)
        assertLibraryPage(try send(server, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(huge)\r\n\r\n"), 431)
        assertLibraryPage(try send(server, "GET /\(huge) HTTP/1.1\r\nHost: x\r\n\r\n"), 414)
        // Each field costs libmicrohttpd a record: 4,000 short ones exhaust it as well.
        let fields = (0..<4000).map { "F\($0):v\r\n" }.joined()
        assertLibraryPage(try send(server, "GET /healthz HTTP/1.1\r\nHost: x\r\n\(fields)\r\n"), 431)
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// libmicrohttpd 0.9.75 runs out of per-connection memory while splitting a query of some
    /// thousands of parameters and then never answers: the connection is closed without a
    /// response, at the latest at --connection-timeout (1 s here) (docs/limits.md).
    func testAQueryOfThousandsOfParametersIsClosedWithoutAnAnswer() throws {
        let server = try Hostile.server(connectionTimeout: 1)
        let query = (0..<8000).map { _ in "a=b" }.joined(separator: "&")
        let connection = try Hostile.connect(server, timeoutSeconds: 10)
        try connection.send("GET /healthz?\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
        assertHealthy(server)
        let started = Date()
        XCTAssertEqual(Hostile.ending(of: connection), .closed)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// Protocol errors libmicrohttpd answers itself, with its own HTML pages.
    func testMalformedRequestsAreRefusedByLibmicrohttpd() throws {
        let server = try Hostile.server()
        for (request, status) in [
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400),
            ("GET /healthz\r\n\r\n", 400),  // HTTP/0.9-style, no version
            ("GET /healthz http/1.1\r\nHost: x\r\n\r\n", 400),
            ("\u{0}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            // The one 5xx Trellis cannot prevent: libmicrohttpd refuses other major versions.
            ("GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET /healthz HTTP/0.9\r\nHost: x\r\n\r\n", 505),
        ] {
            assertLibraryPage(try send(server, request), status)
            assertHealthy(server)
        }
        let garbage = try server.connect()
        try garbage.send((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
        assertLibraryPage(try garbage.readResponse(), 400)
        assertHealthy(server)
    }

    /// What libmicrohttpd tolerates reaches Trellis and gets its usual answers (heads that could be
    /// read two ways, and NUL in the target, are refused: HostileSmugglingTests).
    func testTolerableOddRequestsGetTrellisAnswers() throws {
        let server = try Hostile.server()
        for request in [
            "GET /healthz HTTP/1.0\r\n\r\n",  // no Host, which HTTP/1.0 allows
            "GET /healthz HTTP/1.2\r\nHost: x\r\n\r\n",
            "GET /healthz HTTP/1.1\nHost: x\n\n",  // bare LF
        ] {
            XCTAssertEqual(try send(server, request).status, 200, request.debugDescription)
        }
        for request in [
            "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET ftp://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        ] {
            assertProblem(try send(server, request), 404)
        }
        for method in ["BREW", "G\u{1}T", "DELETE", "PUT", "PATCH", "TRACE", "CONNECT"] {
            let response = try send(server, "\(method) /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assertProblem(response, 405)
            XCTAssertEqual(response.header("Allow"), "GET, HEAD, OPTIONS")
        }
        // A wrong or missing media type stays a 415, whatever it looks like.
        for type in ["", "text/plain", String(repeating: "a", count: 10000), "application/jsonx"] {
            let body = flow.valid
            assertProblem(
                try send(server, "POST \(flow.path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
                415)
        }
        assertHealthy(server)
    }
}

import Foundation
import XCTest
import TrellisTestSupport

/// HTTP/1.1 as RFC 9112 says, over raw sockets: Host present once and valid (§3.2), absolute-form
/// targets served as their path (§3.2.2), `OPTIONS *` answered (§3.2.4), whitespace in the target
/// refused; each refusal is a 400 problem+json with one head, then the close.
final class HostileConformanceTests: HostileTestCase {
    private let flow = Hostile.endpoints[2]

    private func send(_ server: LiveServer, _ request: String) throws -> (TestResponse, TestConnection) {
        let connection = try Hostile.connect(server, timeoutSeconds: 5)
        try connection.send(request)
        return (try connection.readResponse(), connection)
    }

    /// A 400 problem+json with Connection: close, and nothing after it but the close (one head only).
    private func assertRefused(_ server: LiveServer, _ request: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (response, connection) = try send(server, request)
        assertProblem(response, 400, file: file, line: line)
        XCTAssertEqual(response.header("Connection"), "close", request.debugDescription, file: file, line: line)
        XCTAssertFalse(response.text.contains("HTTP/1.1 400"), "a second head in the body: \(response.text)", file: file, line: line)
        let ending = Hostile.ending(of: connection)
        XCTAssertTrue(ending == .closed || ending == .reset, "\(request.debugDescription): \(ending)", file: file, line: line)
    }

    func testHostMustBePresentOnceAndValid() throws {
        let server = try Hostile.server()
        for fields in [
            "Host: a\r\nHost: a\r\n",
            "Host: a\r\nHost: b\r\n",
            "Host: a b\r\n",
            "Host: user@a\r\n",
            "Host: user:pass@a:80\r\n",
            "Host: a:80x\r\n",
            "Host: a/b\r\n",
            "Host: [::1\r\n",
            "Host: []\r\n",
            "Host: a%zz\r\n",
            "",  // HTTP/1.1 without Host
        ] {
            try assertRefused(server, "GET /healthz HTTP/1.1\r\n\(fields)\r\n")
            let body = flow.valid
            try assertRefused(
                server,
                "POST \(flow.path) HTTP/1.1\r\n\(fields)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        // HTTP/1.0 may omit Host, but not send two.
        try assertRefused(server, "GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n")
        for host in ["x", "127.0.0.1:8080", "[::1]:8080", "[v7.a:b]", "example.com.", "ex-am_ple~.com:", "%41", "", " x "] {
            let (response, _) = try send(server, "GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            XCTAssertEqual(response.status, 200, host.debugDescription)
        }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    func testAbsoluteFormTargetsAreServedAsTheirPath() throws {
        let server = try Hostile.server()
        let body = flow.valid
        let expected = try server.request("POST", flow.path, json: body)
        XCTAssertEqual(expected.status, 200)
        for target in ["http://x\(flow.path)", "HTTP://X:8080\(flow.path)", "https://[::1]\(flow.path)?a=1"] {
            let (response, _) = try send(
                server,
                "POST \(target) HTTP/1.1\r\nHost: other\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            XCTAssertEqual(response.status, 200, target)
            XCTAssertEqual(response.body, expected.body, target)
        }
        XCTAssertEqual(try send(server, "GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n").0.text, #"{"status":"ok"}"#)
        // No path: the origin's "/" (the index).
        XCTAssertEqual(try send(server, "GET http://x HTTP/1.1\r\nHost: x\r\n\r\n").0.status, 200)
        // An http URI with an empty host or with userinfo is invalid (RFC 9110 §4.2.1, §4.2.4).
        try assertRefused(server, "GET http:///healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try assertRefused(server, "GET http://user@x/healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    func testOptionsAsteriskIsAnsweredAndOtherMethodsAreRefused() throws {
        let server = try Hostile.server()
        let (response, _) = try send(server, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.header("Allow"), "GET, HEAD, POST, PUT, OPTIONS")
        for method in ["GET", "POST", "HEAD"] {
            let connection = try Hostile.connect(server, timeoutSeconds: 5)
            try connection.send("\(method) * HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            XCTAssertEqual(try connection.readResponse(method: method).status, 400, method)
        }
        assertHealthy(server)
    }

    func testWhitespaceOrControlsInTheTargetAreRefused() throws {
        let server = try Hostile.server()
        for target in ["/heal thz", "/healthz?a= b", "/health\u{1}z", "/healthz\u{7f}"] {
            let connection = try Hostile.connect(server, timeoutSeconds: 5)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            // Refused by Trellis (400 problem+json), or by libmicrohttpd (its 400 page or a close).
            guard let response = try? connection.readResponse() else { continue }
            XCTAssertEqual(response.status, 400, target.debugDescription)
        }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }
}

import Foundation
import XCTest
import TrellisTestSupport

/// Request heads a lenient proxy may read differently from libmicrohttpd (request smuggling),
/// and NUL in the request target. Each is refused with a 400 problem+json that closes the
/// connection, or the connection is closed without an answer: never framed by Content-Length,
/// never served as another route.
final class HostileSmugglingTests: HostileTestCase {
    private let flow = Hostile.endpoints[2]

    /// The answer to `head` (lines, each ending CRLF, without the blank line) followed by a valid
    /// flow body: a 400 problem+json with Connection: close and then the close, or a close alone.
    private func assertRefused(_ server: LiveServer, _ head: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let body = flow.valid
        let connection = try Hostile.connect(server, timeoutSeconds: 5)
        try connection.send("POST \(flow.path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\(head)\r\n\(body)")
        guard let response = try? connection.readResponse() else { return }  // closed without an answer
        assertProblem(response, 400, file: file, line: line)
        XCTAssertEqual(response.header("Connection"), "close", head.debugDescription, file: file, line: line)
        let ending = Hostile.ending(of: connection)
        XCTAssertTrue(ending == .closed || ending == .reset, "\(head.debugDescription): \(ending)", file: file, line: line)
    }

    func testWhitespaceBeforeTheColonIsRefused() throws {
        let server = try Hostile.server()
        for head in [
            "Transfer-Encoding : chunked\r\n",
            "Transfer-Encoding\t: chunked\r\n",
            "Content-Length : 0\r\n",
            "X-Other : v\r\n",
        ] {
            try assertRefused(server, head)
        }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    func testObsFoldIsRefused() throws {
        let server = try Hostile.server()
        for head in [
            "Transfer-Encoding:\r\n chunked\r\n",
            "Transfer-Encoding: identity\r\n\tchunked\r\n",
            "X-Other: a\r\n Transfer-Encoding: chunked\r\n",
            "X-Folded: a\r\n b\r\n",
            "X-Folded: a\r\n\tb\r\n c\r\n",
        ] {
            try assertRefused(server, head)
        }
        // A head whose first field line starts with whitespace.
        let body = flow.valid
        let connection = try Hostile.connect(server, timeoutSeconds: 5)
        try connection.send("POST \(flow.path) HTTP/1.1\r\n Transfer-Encoding: chunked\r\nHost: x\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        if let response = try? connection.readResponse() { assertProblem(response, 400) }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    func testFieldNamesThatAreNotTokensAreRefused() throws {
        let server = try Hostile.server()
        for head in ["Bad Name: v\r\n", "X(Y): v\r\n", "X\u{1}Y: v\r\n", "X\u{7f}: v\r\n", "X-\u{e9}: v\r\n", "X\"Y: v\r\n", "X/Y: v\r\n"] {
            try assertRefused(server, head)
        }
        assertHealthy(server)
    }

    func testControlCharactersInValuesAreRefused() throws {
        let server = try Hostile.server()
        for head in [
            "X-Nul: a\u{0}b\r\n",
            "X-Cr: a\rb\r\n",
            "Transfer-Encoding: chunked\rX: y\r\n",
            "X-Bell: \u{7}bell\r\n",
            "X-Del: a\u{7f}\r\n",
            "X-Esc: \u{1b}[31m\r\n",
        ] {
            try assertRefused(server, head)
        }
        // A NUL in the last field's value, and in a field before it.
        try assertRefused(server, "X-Request-Id: id\u{0}x\r\nX-After: 1\r\n")
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// Ordinary heads, including what RFC 9110 allows that is less common, are still served.
    func testOrdinaryHeadsAreServed() throws {
        let server = try Hostile.server()
        let body = flow.valid
        for extra in [
            "",
            "X-Tab: a\tb\r\n",
            "X-Spaces:    padded   \r\n",
            "X-Bare:v\r\n",
            "X-Empty:\r\n",
            "X-Obs-Text: caf\u{e9} \u{2603}\r\n",
            "X-!#$%&'*+.^_`|~09az: token characters\r\n",
            "Accept: */*\r\nUser-Agent: curl/8.5.0\r\nCookie: a=b; c=d\r\nAccept-Encoding: gzip, deflate\r\n",
        ] {
            let connection = try server.connect()
            try connection.send("POST \(flow.path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\(extra)\r\n\(body)")
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, "\(extra.debugDescription): \(response.text)")
            // Keep-alive goes on.
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
            XCTAssertEqual(try connection.readResponse().status, 200, extra.debugDescription)
        }
        // Bare LF line ends (RFC 9112 §2.2 lets a server accept them).
        let connection = try server.connect()
        try connection.send("GET /healthz HTTP/1.1\nHost: x\nX-A: 1\n\n")
        XCTAssertEqual(try connection.readResponse().status, 200)
        assertHealthy(server)
    }

    /// An encoded or raw NUL in the path never selects the route before it.
    func testNulInThePathIsNeverAnotherRoute() throws {
        let server = try Hostile.server()
        for target in ["/%00abc", "/healthz%00x", "/healthz%00", "/%00", "/healthz%00?x=1"] {
            let response = try server.request("GET", target)
            assertProblem(response, 400)
            XCTAssertEqual(response.header("Connection"), "close")
        }
        let posted = try server.request("POST", "/v1/flow/layout%00", json: flow.valid)
        assertProblem(posted, 400)
        for target in ["/healthz\u{0}x", "/healthz\u{0}", "/heal\u{0}thz", "/healthz\u{0}HTTP/1.1", "/healthz\u{0}\u{0}HTTP/1.1"] {
            let connection = try Hostile.connect(server, timeoutSeconds: 5)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            guard let response = try? connection.readResponse() else { continue }  // closed without an answer
            assertProblem(response, 400)
        }
        // %00 in the query is not the path's business.
        XCTAssertEqual(try server.request("GET", "/healthz?x=%00").status, 200)
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }
}

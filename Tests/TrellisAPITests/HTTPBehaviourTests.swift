import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

/// The rules every endpoint shares, over real sockets against the real server.
final class HTTPBehaviourTests: XCTestCase {
    private func server(
        maxBodyBytes: Int = 8 << 20, maxConnections: Int = 1024, cors: CORSPolicy = .anyOrigin
    ) throws -> LiveServer {
        try LiveServer(
            http: HTTPServerConfiguration(threads: 2, maxBodyBytes: maxBodyBytes, maxConnections: maxConnections),
            service: ServiceConfiguration(cors: cors),
            endpoints: [echoEndpoint])
    }

    private func assertProblem(_ response: TestResponse, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let json = response.json
        XCTAssertEqual(json["type"] as? String, "about:blank", file: file, line: line)
        XCTAssertEqual(json["status"] as? Int, status, file: file, line: line)
        XCTAssertEqual(json["title"] as? String, TrellisStatus.reason(status), file: file, line: line)
        XCTAssertFalse((json["detail"] as? String ?? "").isEmpty, file: file, line: line)
    }

    func testValidRequestAnswers200WithJSON() throws {
        let response = try server().request("POST", "/test/echo", json: #"{"width": 12.5, "name": "tag", "extra": [1]}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.text, #"{"width":12.5,"name":"tag","tags":[],"body":{"width":12.5,"name":"tag","extra":[1]}}"#)
    }

    func testHeadHealthzHasNoBody() throws {
        let server = try self.server()
        let connection = try server.connect()
        try connection.send("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse(method: "HEAD")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), "15")
    }

    func testUnknownPathIs404() throws {
        assertProblem(try server().request("GET", "/nowhere"), 404)
    }

    func testWrongMethodIs405WithAllow() throws {
        let server = try self.server()
        let post = try server.request("POST", "/healthz", json: "{}")
        assertProblem(post, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD, OPTIONS")
        let get = try server.request("GET", "/test/echo")
        assertProblem(get, 405)
        XCTAssertEqual(get.header("Allow"), "POST, OPTIONS")
    }

    func testMissingOrWrongContentTypeIs415() throws {
        let server = try self.server()
        let connection = try server.connect()
        let body = #"{"width":1,"name":"a"}"#
        try connection.send("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let response = try connection.readResponse()
        assertProblem(response, 415)
        XCTAssertTrue((response.json["detail"] as? String ?? "").contains("Content-Type: application/json"))
    }

    func testJSONMediaTypesWithParametersAndSuffixesAreAccepted() {
        XCTAssertTrue(MediaType.isJSON("application/json"))
        XCTAssertTrue(MediaType.isJSON("Application/JSON; charset=utf-8"))
        XCTAssertTrue(MediaType.isJSON("application/merge-patch+json"))
        XCTAssertFalse(MediaType.isJSON("text/json"))
        XCTAssertFalse(MediaType.isJSON("application/jsonx"))
        XCTAssertFalse(MediaType.isJSON(nil))
    }

    func testMalformedJSONIs400() throws {
        let server = try self.server()
        for body in ["", "{", #"{"width": 1,}"#, "[1, 2", "nul", #"{"a": NaN}"#, "\u{FEFF}{}", "{\"a\":1e400}"] {
            assertProblem(try server.request("POST", "/test/echo", json: body), 400)
        }
    }

    func testInvalidUTF8Is400() throws {
        let server = try self.server()
        let connection = try server.connect()
        let body: [UInt8] = Array(#"{"name":""#.utf8) + [0xC3, 0x28] + Array(#"","width":1}"#.utf8)
        try connection.send(Array("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        assertProblem(try connection.readResponse(), 400)
    }

    func testDeepNestingIs400WithTheLimitAndAdvice() throws {
        let body = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let response = try server().request("POST", "/test/echo", json: body)
        assertProblem(response, 400)
        let detail = response.json["detail"] as? String ?? ""
        XCTAssertTrue(detail.contains("1024"), detail)
        XCTAssertTrue(detail.contains("Send a flatter document."), detail)
    }

    func testInvalidInputIs422WithEveryProblemAndItsPointer() throws {
        let response = try server().request("POST", "/test/echo", json: #"{"width": -1, "tags": ["a", 2, null]}"#)
        assertProblem(response, 422)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors, [
            ["pointer": "/width", "detail": "must be a finite number ≥ 0"],
            ["pointer": "/name", "detail": "is required"],
            ["pointer": "/tags/1", "detail": "must be a string"],
            ["pointer": "/tags/2", "detail": "must be a string"],
        ])
    }

    func testTopLevelNonObjectIs422AtTheRootPointer() throws {
        let response = try server().request("POST", "/test/echo", json: "[]")
        assertProblem(response, 422)
        XCTAssertEqual(response.json["errors"] as? [[String: String]], [["pointer": "", "detail": "must be an object"]])
    }

    func testBodyOverTheLimitIs413() throws {
        let server = try self.server(maxBodyBytes: 1000)
        let body = #"{"name":""# + String(repeating: "x", count: 2000) + #"","width":1}"#
        let response = try server.request("POST", "/test/echo", json: body)
        assertProblem(response, 413)
        XCTAssertEqual(response.header("Connection"), "close")
    }

    /// A 100 MiB upload is refused from its Content-Length, long before it could be read.
    func testHugeUploadIsRefusedQuicklyWithoutReadingIt() throws {
        let server = try self.server()
        let connection = try server.connect()
        let started = Date()
        try connection.send("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(100 << 20)\r\n\r\n")
        // Whatever the client manages to push before the refusal, it is a small part of 100 MiB.
        var pushed = 0
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        while pushed < 4 << 20, try connection.send(chunk) {
            pushed += chunk.count
        }
        let response = try connection.readResponse()
        assertProblem(response, 413)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertLessThan(pushed, 100 << 20)
    }

    /// Without a Content-Length (chunked), the server stops storing once the bytes received pass
    /// the cap, and answers 413 at the body's end.
    func testChunkedUploadPastTheLimitIs413() throws {
        let server = try self.server(maxBodyBytes: 10_000)
        let connection = try server.connect()
        try connection.send("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let piece = String(repeating: " ", count: 4096)
        for _ in 0..<4 {
            try connection.send("\(String(piece.utf8.count, radix: 16))\r\n\(piece)\r\n")
        }
        try connection.send("0\r\n\r\n")
        assertProblem(try connection.readResponse(), 413)
    }

    /// An endless chunked upload past the cap is cut off after a bounded drain (1 MiB).
    func testEndlessChunkedUploadIsCutOff() throws {
        let server = try self.server(maxBodyBytes: 10_000)
        let connection = try server.connect()
        try connection.send("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let piece = String(repeating: " ", count: 65536)
        var sent = 0
        while sent < 64 << 20, try connection.send("\(String(piece.utf8.count, radix: 16))\r\n\(piece)\r\n") {
            sent += piece.utf8.count
        }
        XCTAssertLessThan(sent, 64 << 20, "the server kept reading")
        XCTAssertTrue(connection.isClosedByPeer())
    }

    func testChunkedUploadWithinTheLimitIsRead() throws {
        let server = try self.server()
        let connection = try server.connect()
        try connection.send("POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        for part in [#"{"width":"#, #"3,"name":"#, #""c"}"#] {
            try connection.send("\(String(part.utf8.count, radix: 16))\r\n\(part)\r\n")
        }
        try connection.send("0\r\n\r\n")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.json["name"] as? String, "c")
    }

    func testConnectionsPastTheLimitGet503AndClose() throws {
        let server = try self.server(maxConnections: 2)
        let first = try server.connect(), second = try server.connect()
        try first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try first.readResponse().status, 200)
        try second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try second.readResponse().status, 200)
        let third = try server.connect()
        try third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try third.readResponse()
        assertProblem(response, 503)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(third.isClosedByPeer())
    }

    func testPreflightFromAnAllowedOrigin() throws {
        let server = try self.server(cors: CORSPolicy("https://app.example, https://admin.example"))
        let response = try server.request("OPTIONS", "/test/echo", headers: [
            ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ])
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(response.header("Vary"), "Origin")
        XCTAssertEqual(response.header("Access-Control-Allow-Methods"), "GET, HEAD, POST, PUT, OPTIONS")
        XCTAssertEqual(response.header("Access-Control-Allow-Headers"), "Content-Type, X-Request-Id")
        XCTAssertEqual(response.header("Access-Control-Max-Age"), "600")
    }

    func testPreflightFromADisallowedOriginGetsNoCORSHeaders() throws {
        let server = try self.server(cors: CORSPolicy("https://app.example"))
        let response = try server.request("OPTIONS", "/test/echo", headers: [
            ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST"),
        ])
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
        XCTAssertNil(response.header("Access-Control-Allow-Methods"))
    }

    func testSimpleRequestsFromAllowedAndDisallowedOrigins() throws {
        let listed = try self.server(cors: CORSPolicy("https://app.example"))
        let allowed = try listed.request("GET", "/healthz", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(allowed.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(allowed.header("Access-Control-Expose-Headers"), "X-Request-Id")
        XCTAssertEqual(allowed.header("Vary"), "Origin")
        let denied = try listed.request("GET", "/healthz", headers: [("Origin", "https://evil.example")])
        XCTAssertEqual(denied.status, 200)
        XCTAssertNil(denied.header("Access-Control-Allow-Origin"))
        let any = try self.server().request("POST", "/test/echo", json: #"{"width":1,"name":"n"}"#, headers: [("Origin", "https://x.example")])
        XCTAssertEqual(any.header("Access-Control-Allow-Origin"), "*")
        XCTAssertNil(any.header("Vary"))
    }

    func testRequestIdIsEchoedOrGenerated() throws {
        let server = try self.server()
        XCTAssertEqual(try server.request("GET", "/healthz", headers: [("X-Request-Id", "abc-123_XYZ")]).header("X-Request-Id"), "abc-123_XYZ")
        let errorResponse = try server.request("GET", "/missing", headers: [("X-Request-Id", "trace-1")])
        XCTAssertEqual(errorResponse.header("X-Request-Id"), "trace-1")
        let generated = try XCTUnwrap(try server.request("GET", "/healthz").header("X-Request-Id"))
        XCTAssertFalse(generated.isEmpty)
        let other = try XCTUnwrap(try server.request("GET", "/healthz").header("X-Request-Id"))
        XCTAssertNotEqual(generated, other)
        for bad in [String(repeating: "a", count: 129), "has space"] {
            let id = try XCTUnwrap(try server.request("GET", "/healthz", headers: [("X-Request-Id", bad)]).header("X-Request-Id"))
            XCTAssertNotEqual(id, bad)
            XCTAssertTrue(RequestID.accepts(id))
        }
    }

    func testMetricsCountRequests() throws {
        let server = try self.server()
        _ = try server.request("GET", "/healthz")
        _ = try server.request("POST", "/test/echo", json: "{}")
        let metrics = try server.request("GET", "/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertEqual(metrics.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.text
        XCTAssertTrue(text.contains(#"trellis_requests_total{route="/healthz",method="GET",status="200"} 1"#), text)
        XCTAssertTrue(text.contains(#"trellis_requests_total{route="/test/echo",method="POST",status="422"} 1"#), text)
        XCTAssertTrue(text.contains(#"trellis_request_duration_seconds_count{route="/healthz"} 1"#), text)
        XCTAssertTrue(text.contains("trellis_requests_in_flight 1\n"), text)
        XCTAssertTrue(text.contains("trellis_request_bytes_total 2\n"), text)
    }

    func testReadyzTurns503WhileDraining() throws {
        let server = try LiveServer(service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)), endpoints: [echoEndpoint])
        XCTAssertEqual(try server.request("GET", "/readyz").status, 200)
        server.service.beginDraining()
        let draining = try server.request("GET", "/readyz")
        assertProblem(draining, 503)
        XCTAssertEqual(draining.header("Connection"), "close")
    }

    func testIndexListsEndpointsAndSpecIsServed() throws {
        let server = try self.server()
        let index = try server.request("GET", "/")
        XCTAssertEqual(index.json["service"] as? String, "trellis")
        let endpoints = index.json["endpoints"] as? [[String: String]] ?? []
        XCTAssertTrue(endpoints.contains(["method": "POST", "path": "/test/echo"]))
        XCTAssertEqual(index.json["openapi"] as? String, "/openapi.yaml")
        let spec = try server.request("GET", "/openapi.yaml")
        XCTAssertEqual(spec.status, 200)
        XCTAssertEqual(spec.header("Content-Type"), "application/yaml")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertEqual(spec.body, Array(try Data(contentsOf: repository.appendingPathComponent("openapi.yaml"))))
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try self.server()
        let connection = try server.connect()
        for _ in 0..<3 {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().status, 200)
        }
    }
}

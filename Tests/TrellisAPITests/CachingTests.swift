import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Caching (RFC 9111), validators and conditional GET (RFC 9110 §8.8.3, §13.1.2), and the fields
/// every answer carries, over real sockets against the real server.
final class CachingTests: XCTestCase {
    /// The GET routes whose answers are fixed for the life of the process.
    static let fixedPaths = ["/", "/openapi.yaml", "/playground", "/clients/trellis.mjs", "/v1/fonts"]

    private func server(maxBodyBytes: Int = 8 << 20) throws -> LiveServer {
        try LiveServer(
            http: HTTPServerConfiguration(threads: 2, maxBodyBytes: maxBodyBytes),
            service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
    }

    private func assertNotStored(_ response: TestResponse, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.header("Cache-Control"), "no-store", "\(what): \(response.status)", file: file, line: line)
        XCTAssertNil(response.header("ETag"), what, file: file, line: line)
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff", what, file: file, line: line)
    }

    func testAPIAnswersProblemsHealthAndMetricsAreNotStored() throws {
        let server = try self.server()
        let toggle = try server.request("POST", "/v1/sections/toggle", json: #"{"sections":[]}"#)
        XCTAssertEqual(toggle.status, 200)
        assertNotStored(toggle, "POST 200")
        let invalid = try server.request("POST", "/v1/sections/toggle", json: #"{"sections":7}"#)
        XCTAssertEqual(invalid.status, 422)
        assertNotStored(invalid, "POST 422")
        assertNotStored(try server.request("POST", "/v1/sections/toggle", json: "{"), "POST 400")
        assertNotStored(try server.request("POST", "/v1/sections/toggle"), "POST 415")
        assertNotStored(try server.request("GET", "/nowhere"), "404")
        assertNotStored(try server.request("POST", "/playground", json: "{}"), "405")
        assertNotStored(try server.request("OPTIONS", "/v1/flow/layout"), "OPTIONS")
        for path in ["/healthz", "/readyz", "/metrics"] {
            let response = try server.request("GET", path)
            XCTAssertEqual(response.status, 200, path)
            assertNotStored(response, path)
            // A validator-less answer is never 304, whatever the client sends.
            XCTAssertEqual(try server.request("GET", path, headers: [("If-None-Match", "*")]).status, 200, path)
        }
    }

    func testTheTransportsRejectionsCarryTheSameFields() throws {
        let server = try self.server(maxBodyBytes: 64)
        let connection = try server.connect()
        try connection.send("POST /v1/flow/layout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 413)
        assertNotStored(response, "413 before the body")
    }

    func testFixedAnswersAreCacheableWithAStrongETag() throws {
        let server = try self.server()
        for path in Self.fixedPaths {
            let first = try server.request("GET", path)
            XCTAssertEqual(first.status, 200, path)
            XCTAssertEqual(first.header("Cache-Control"), "max-age=300", path)
            XCTAssertEqual(first.header("X-Content-Type-Options"), "nosniff", path)
            let tag = try XCTUnwrap(first.header("ETag"), path)
            XCTAssertNotNil(tag.range(of: #"^"[0-9a-f]{32}"$"#, options: .regularExpression), "\(path): \(tag) is not a strong tag")
            XCTAssertEqual(try server.request("GET", path).header("ETag"), tag, "\(path): the tag changed between requests")
            let head = try server.request("HEAD", path)
            XCTAssertEqual(head.header("ETag"), tag, path)
            XCTAssertEqual(head.header("Cache-Control"), "max-age=300", path)
        }
        let tags = try Set(Self.fixedPaths.map { try server.request("GET", $0).header("ETag") })
        XCTAssertEqual(tags.count, Self.fixedPaths.count, "two different answers share a tag")
    }

    func testIfNoneMatchGets304ForGetAndHead() throws {
        let server = try self.server()
        for path in Self.fixedPaths {
            let full = try server.request("GET", path)
            let tag = try XCTUnwrap(full.header("ETag"))
            let opaque = String(tag.dropFirst().dropLast())
            for field in [tag, "W/\(tag)", "*", #""0", \#(tag)"#, #"W/"x" , , \#(tag) "#, #""a,b", \#(tag)"#] {
                for method in ["GET", "HEAD"] {
                    let response = try server.request(method, path, headers: [("If-None-Match", field)])
                    XCTAssertEqual(response.status, 304, "\(method) \(path) If-None-Match: \(field)")
                    XCTAssertEqual(response.header("ETag"), tag, "\(method) \(path)")
                    XCTAssertEqual(response.header("Cache-Control"), "max-age=300", "\(method) \(path)")
                    XCTAssertNil(response.header("Content-Type"), "\(method) \(path): a 304 sends no representation metadata")
                }
            }
            for field in [#""0""#, #"W/"0", "1""#, opaque, "\(tag) x", #""\#(opaque)"#, "", "**"] {
                let response = try server.request("GET", path, headers: [("If-None-Match", field)])
                XCTAssertEqual(response.status, 200, "\(path) If-None-Match: \(field)")
                XCTAssertEqual(response.body, full.body, path)
            }
        }
    }

    /// A 304 has no content (RFC 9110 §15.4.5): the connection goes on with the next answer, whole.
    func test304EndsAtItsHeadOnAKeptConnection() throws {
        let server = try self.server()
        let tag = try XCTUnwrap(try server.request("GET", "/openapi.yaml").header("ETag"))
        let connection = try server.connect()
        try connection.send("GET /openapi.yaml HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tag)\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let notModified = try connection.readResponse()
        XCTAssertEqual(notModified.status, 304)
        // libmicrohttpd 0.9.75 adds "Content-Length: 0" to every 304 (RFC 9110 §8.6 would have none);
        // caches never take Content-Length from a 304 (RFC 9111 §3.2), and the framing holds.
        XCTAssertTrue([nil, "0"].contains(notModified.header("Content-Length")), "\(notModified.headers)")
        let next = try connection.readResponse()
        XCTAssertEqual(next.status, 200)
        XCTAssertEqual(next.text, #"{"status":"ok"}"#)
    }

    func testAConditionalRequestIsCountedAs304() throws {
        let server = try self.server()
        let tag = try XCTUnwrap(try server.request("GET", "/playground").header("ETag"))
        _ = try server.request("GET", "/playground", headers: [("If-None-Match", tag)])
        let metrics = try server.request("GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"trellis_requests_total{route="/playground",method="GET",status="304"} 1"#), metrics)
    }

    /// With --cors-origins * the answer is the same with or without Origin, so a shared cache can hand
    /// the one it kept to a page on any origin (a module import is a CORS request).
    func testAnyOriginAnswersTheSameWithoutOrigin() throws {
        let server = try self.server()
        let plain = try server.request("GET", "/clients/trellis.mjs")
        let cross = try server.request("GET", "/clients/trellis.mjs", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(plain.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(cross.header("Access-Control-Allow-Origin"), "*")
        XCTAssertNil(plain.header("Vary"))
    }

    func testEntityTagsFollowTheBytes() {
        XCTAssertEqual(Caching.entityTag(of: Array("abc".utf8)), #""ba7816bf8f01cfea414140de5dae2223""#)
        XCTAssertNotEqual(Caching.entityTag(of: Operations.playground), Caching.entityTag(of: Operations.playground + [0x0A]))
    }

    /// FIPS 180-4's examples (libcrypto's SHA-256), across one and two blocks, and the padding edges.
    func testSHA256() throws {
        func hex(_ bytes: [UInt8]) throws -> String { ContentDigest.hex(try XCTUnwrap(ContentDigest.sha256(bytes))) }
        XCTAssertEqual(try hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(try hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            try hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            try hex([UInt8](repeating: 0x61, count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // A slice hashes its own bytes, not its base's.
        let page = Array("xxabcxx".utf8)
        XCTAssertEqual(
            ContentDigest.hex(try XCTUnwrap(ContentDigest.sha256(page[2..<5]))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentDigest.base64(Array("any carnal pleas".utf8)), "YW55IGNhcm5hbCBwbGVhcw==")
        XCTAssertEqual(ContentDigest.base64(Array("any carnal pleasu".utf8)), "YW55IGNhcm5hbCBwbGVhc3U=")
        XCTAssertEqual(ContentDigest.base64(Array("any carnal pleasur".utf8)), "YW55IGNhcm5hbCBwbGVhc3Vy")
    }

    func testRequestIdsAreRandomAndRevealNothing() throws {
        let server = try self.server()
        var ids: [String] = []
        for _ in 0..<8 { ids.append(try XCTUnwrap(try server.request("GET", "/healthz").header("X-Request-Id"))) }
        for id in ids {
            XCTAssertNotNil(id.range(of: "^[0-9a-f]{32}$", options: .regularExpression), "\(id) is not 128 bits in hex")
        }
        // A per-process prefix or a counter would show in a shared prefix or suffix of consecutive ids.
        XCTAssertEqual(Set(ids.map { $0.prefix(8) }).count, ids.count, "\(ids)")
        XCTAssertEqual(Set(ids.map { $0.suffix(8) }).count, ids.count, "\(ids)")
        XCTAssertEqual(try server.request("GET", "/healthz", headers: [("X-Request-Id", "trace-7")]).header("X-Request-Id"), "trace-7")
    }
}

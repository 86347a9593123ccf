import Foundation
import Glibc
import XCTest
import TrellisTestSupport

/// How bodies arrive: byte by byte, with lying lengths, chunked, unsupported codings, too large.
final class HostileFramingTests: HostileTestCase {
    private let flow = Hostile.endpoints[2]

    private func jsonHead(_ path: String, _ fields: String) -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(fields)\r\n".utf8)
    }

    /// Chunked framing of `body` in pieces of `size` bytes.
    private func chunked(_ body: [UInt8], size: Int, extensions: String = "", trailer: String = "") -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < body.count {
            let piece = body[start..<min(start + size, body.count)]
            out += Array("\(String(piece.count, radix: 16, uppercase: true))\(extensions)\r\n".utf8) + piece + Array("\r\n".utf8)
            start += size
        }
        return out + Array("0\r\n\(trailer)\r\n".utf8)
    }

    func testRequestsSentOneByteAtATimeAreAnswered() throws {
        let server = try Hostile.server()
        for endpoint in Hostile.endpoints {
            let connection = try Hostile.connect(server)
            let body = Array(endpoint.valid.utf8)
            try Hostile.trickle(Hostile.head(endpoint.path, length: body.count) + body, on: connection)
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, "\(endpoint.path): \(response.text)")
            assertHealthy(server)
        }
    }

    func testChunkedBodiesInOneByteChunksAreAnswered() throws {
        let server = try Hostile.server()
        for endpoint in Hostile.endpoints {
            let connection = try Hostile.connect(server)
            let request = jsonHead(endpoint.path, "Transfer-Encoding: chunked\r\n") + chunked(Array(endpoint.valid.utf8), size: 1)
            try Hostile.trickle(request, on: connection, pauseMicros: 20)
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, "\(endpoint.path): \(response.text)")
            assertHealthy(server)
        }
    }

    /// Chunk extensions are ignored, trailers are accepted, hex sizes may be upper case.
    func testChunkedBodiesWithExtensionsAndTrailers() throws {
        let server = try Hostile.server()
        for endpoint in Hostile.endpoints {
            let connection = try server.connect()
            try connection.send(
                jsonHead(endpoint.path, "Transfer-Encoding: Chunked\r\n")
                    + chunked(Array(endpoint.valid.utf8), size: 11, extensions: ";name=value", trailer: "X-Trailer: 1\r\n"))
            XCTAssertEqual(try connection.readResponse().status, 200, endpoint.path)
            // The connection stays usable.
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().status, 200)
        }
        assertHealthy(server)
    }

    /// libmicrohttpd answers broken chunk framing itself, before Trellis sees the request (docs/limits.md).
    func testBrokenChunkFramingIsRefusedByLibmicrohttpd() throws {
        let server = try Hostile.server()
        for (framing, status) in [
            ("zz\r\n{}\r\n0\r\n\r\n", 400),  // not hex
            ("2\r\n{}XX0\r\n\r\n", 400),  // no CRLF after the data
            ("ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n", 413),  // size past 64 bits
        ] {
            let connection = try server.connect()
            try connection.send(jsonHead(flow.path, "Transfer-Encoding: chunked\r\n") + Array(framing.utf8))
            assertLibraryPage(try connection.readResponse(), status)
            assertHealthy(server)
        }
    }

    /// Regression: a Transfer-Encoding other than chunked used to leave the connection waiting
    /// (libmicrohttpd reads such a body until the client closes) until the idle timeout.
    func testUnsupportedTransferEncodingIs400AtOnce() throws {
        let server = try Hostile.server()
        for fields in [
            "Transfer-Encoding: gzip\r\n",
            "Transfer-Encoding: gzip, chunked\r\n",
            "Transfer-Encoding: identity\r\n",
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
        ] {
            let connection = try Hostile.connect(server, timeoutSeconds: 5)
            try connection.send(jsonHead(flow.path, fields) + Array("2\r\n{}\r\n0\r\n\r\n".utf8))
            let response = try connection.readResponse()
            assertProblem(response, 400)
            XCTAssertTrue((response.json["detail"] as? String ?? "").contains("Transfer-Encoding"), fields)
            XCTAssertEqual(response.header("Connection"), "close")
            assertHealthy(server)
        }
        assertNoRequestsLeft(server)
    }

    /// Regression: with Content-Length and Transfer-Encoding together, or differing Content-Length
    /// values, the body's end was libmicrohttpd's guess (a request-smuggling risk, RFC 9112 §6.3).
    func testAmbiguousLengthIs400AndCloses() throws {
        let server = try Hostile.server()
        for (fields, body) in [
            ("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "2\r\n{}\r\n0\r\n\r\n"),
            ("Transfer-Encoding: chunked\r\nContent-Length: 0\r\n", "2\r\n{}\r\n0\r\n\r\n"),
            ("Content-Length: 2\r\nContent-Length: 3\r\n", "{} "),
        ] {
            let connection = try server.connect()
            try connection.send(jsonHead(flow.path, fields) + Array(body.utf8))
            let response = try connection.readResponse()
            assertProblem(response, 400)
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertEqual(Hostile.ending(of: connection), .closed)
            assertHealthy(server)
        }
        // Repeating the same value is harmless.
        let connection = try server.connect()
        let body = Array(flow.valid.utf8)
        try connection.send(jsonHead(flow.path, "Content-Length: \(body.count)\r\nContent-Length: \(body.count)\r\n") + body)
        XCTAssertEqual(try connection.readResponse().status, 200)
    }

    /// A Content-Length shorter than the body: the server reads exactly that many bytes, and
    /// the rest is the next request on the connection.
    func testContentLengthShorterThanTheBody() throws {
        let server = try Hostile.server()
        for endpoint in Hostile.endpoints {
            let body = Array(endpoint.valid.utf8)
            // Half the body: truncated JSON, then the rest is a line that is no request at all.
            let connection = try server.connect()
            try connection.send(Hostile.head(endpoint.path, length: body.count / 2) + body + Array("\r\n\r\n".utf8))
            assertProblem(try connection.readResponse(), 400)
            XCTAssertEqual(Hostile.ending(of: connection), .closed, "libmicrohttpd closes on a request line without a version")
            // A two-byte body followed by a complete request: both are answered, in order.
            let smuggling = try server.connect()
            try smuggling.send(Hostile.head(endpoint.path, length: 2) + Array("{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            assertProblem(try smuggling.readResponse(), 422)
            XCTAssertEqual(try smuggling.readResponse().text, #"{"status":"ok"}"#)
            assertHealthy(server)
        }
    }

    /// A Content-Length longer than the body: the server waits for the rest (other clients are
    /// answered meanwhile), and closes without an answer when the client gives up or idles past
    /// --connection-timeout. libmicrohttpd sends no 408 (docs/limits.md).
    func testContentLengthLongerThanTheBody() throws {
        let server = try Hostile.server(connectionTimeout: 1)
        var gaveUp: [TestConnection] = [], idle: [TestConnection] = []
        for endpoint in Hostile.endpoints {
            let body = Array(endpoint.valid.utf8)
            let first = try Hostile.connect(server)
            try first.send(Hostile.head(endpoint.path, length: body.count + 100) + body)
            gaveUp.append(first)
            let second = try Hostile.connect(server)
            try second.send(Hostile.head(endpoint.path, length: body.count + 1) + body)
            idle.append(second)
        }
        assertHealthy(server)
        for connection in gaveUp {
            shutdown(connection.fd, Int32(SHUT_WR))
            XCTAssertEqual(Hostile.ending(of: connection), .closed)
        }
        let started = Date()
        for connection in idle {
            XCTAssertEqual(Hostile.ending(of: connection), .closed)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 8, "closed well after --connection-timeout")
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// Past --max-body-bytes (64 KiB here), every endpoint answers 413 from the Content-Length,
    /// quickly, without reading the body and without inviting it with 100 Continue.
    func testBodyOverTheLimitIs413QuicklyOnEveryEndpoint() throws {
        let server = try Hostile.server()
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        for endpoint in Hostile.endpoints {
            let started = Date()
            let connection = try Hostile.connect(server)
            try connection.send(Hostile.head(endpoint.path, length: 64 << 20))
            var pushed = 0
            while pushed < 2 << 20, try connection.send(chunk) { pushed += chunk.count }
            let response = try connection.readResponse()
            assertProblem(response, 413)
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5)

            let expecting = try Hostile.connect(server)
            try expecting.send(Hostile.head(endpoint.path, length: (64 << 10) + 1, extra: "Expect: 100-continue\r\n"))
            assertProblem(try expecting.readResponse(), 413)
            assertHealthy(server)
        }
        // Chunked past the limit, in one go: the cap is counted on the bytes received.
        let connection = try server.connect()
        try connection.send(jsonHead(flow.path, "Transfer-Encoding: chunked\r\n") + chunked(Array(repeating: 0x20, count: 100 << 10), size: 8 << 10))
        assertProblem(try connection.readResponse(), 413)
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// Content-Length values libmicrohttpd cannot parse are refused by it, with its own pages
    /// (and, in 0.9.75, its status line and headers written twice: the body begins with them).
    func testUnparsableContentLengthIsRefusedByLibmicrohttpd() throws {
        let server = try Hostile.server()
        for (value, status) in [("-1", 400), ("abc", 400), ("18446744073709551616", 413)] {
            let connection = try server.connect()
            try connection.send(jsonHead(flow.path, "Content-Length: \(value)\r\n") + Array("{}".utf8))
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, status, value)
            XCTAssertNil(response.header("Content-Type"))
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(response.text.hasPrefix("HTTP/1.1 \(status) "), response.text)
            assertHealthy(server)
        }
        // The largest value it parses reaches Trellis: a 413 of its own.
        let connection = try server.connect()
        try connection.send(jsonHead(flow.path, "Content-Length: 18446744073709551615\r\n"))
        assertProblem(try connection.readResponse(), 413)
        assertHealthy(server)
    }

    func testHTTP10AndPipelinedRequests() throws {
        let server = try Hostile.server()
        let body = Array(flow.valid.utf8)
        let old = try server.connect()
        try old.send(Array("POST \(flow.path) HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        XCTAssertEqual(try old.readResponse().status, 200)
        XCTAssertEqual(Hostile.ending(of: old), .closed)

        let pipelined = try server.connect()
        var requests: [UInt8] = []
        for endpoint in Hostile.endpoints {
            requests += Hostile.head(endpoint.path, length: endpoint.valid.utf8.count) + Array(endpoint.valid.utf8)
        }
        try pipelined.send(requests + Array("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        for endpoint in Hostile.endpoints {
            XCTAssertEqual(try pipelined.readResponse().status, 200, endpoint.path)
        }
        assertProblem(try pipelined.readResponse(), 404)
        assertHealthy(server)
    }
}

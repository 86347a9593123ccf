import Foundation
import TrellisServer
import TrellisHTTP
import XCTest

/// The server on its own, with a handler that reports what it received.
final class HTTPServerTests: XCTestCase {
    /// Answers "METHOD PATH bodyLength padding x-test-header" (the query is not kept).
    func startServer(maxBodyBytes: Int = 1 << 20, threads: Int = 2) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: threads, maxBodyBytes: maxBodyBytes)
        ) { request in
            if let rejection = request.rejection {
                return TrellisResponse(status: rejection == .overloaded ? 503 : 413, body: Array("rejected".utf8))
            }
            let padding = ConnectionPolicy.bodyPadding
            let padded = request.bodyPadding >= padding
                && UnsafeRawBufferPointer(start: request.body.baseAddress! + request.body.count, count: padding).allSatisfy { $0 == 0 }
            let summary = "\(request.method) \(request.path) \(request.body.count) \(padded) \(request.headers["x-test"] ?? "-")"
            return TrellisResponse(status: 200, headers: ["Content-Type": "text/plain", "X-Echo": "yes"], body: Array(summary.utf8))
        }
        try server.start()
        return server
    }

    func exchange(_ port: Int, _ raw: [UInt8]) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var sent = 0
        while sent < raw.count {
            let n = raw.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            reply += chunk[0..<n]
            if let text = String(bytes: reply, encoding: .utf8), let split = text.range(of: "\r\n\r\n"),
               let length = text[..<split.lowerBound].components(separatedBy: "\r\n")
                .first(where: { $0.lowercased().hasPrefix("content-length:") })
                .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }),
               text.utf8.count - text[..<split.upperBound].utf8.count >= length {
                break
            }
        }
        return String(decoding: reply, as: UTF8.self)
    }

    func testDeliversOneCompleteRequestWithPaddedBodyAndHeaders() throws {
        let server = try startServer()
        defer { server.stop() }
        let body = String(repeating: "b", count: 100_000)
        let reply = try exchange(server.port, Array("POST /p/q?a=1&b HTTP/1.1\r\nHost: x\r\nX-Test: hi\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8))
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200"), reply)
        XCTAssertTrue(reply.contains("X-Echo: yes\r\n"), reply)
        XCTAssertTrue(reply.hasSuffix("POST /p/q 100000 true hi"), reply)
    }

    func testEmptyBodyIsStillPadded() throws {
        let server = try startServer()
        defer { server.stop() }
        let reply = try exchange(server.port, Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertTrue(reply.hasSuffix("GET / 0 true -"), reply)
    }

    func testDeclaredOversizedBodyIsRejectedBeforeItIsSent() throws {
        let server = try startServer(maxBodyBytes: 1000)
        defer { server.stop() }
        let reply = try exchange(server.port, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n".utf8))
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 413"), reply)
        XCTAssertTrue(reply.contains("Connection: close\r\n"), reply)
    }

    func testThreadPerConnectionModeServes() throws {
        let server = try startServer(threads: 0)
        defer { server.stop() }
        let reply = try exchange(server.port, Array("GET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertTrue(reply.hasSuffix("GET /t 0 true -"), reply)
    }

    func testPortInUseIsReported() throws {
        let server = try startServer()
        defer { server.stop() }
        let second = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: server.port)) { _ in TrellisResponse(status: 200) }
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertEqual(error as? HTTPServerError, .addressInUse(host: "127.0.0.1", port: server.port))
        }
    }

    func testStopIsIdempotentAndQuiesceRefusesNewConnections() throws {
        let server = try startServer()
        let port = server.port
        server.quiesce()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(result, -1)
        server.stop()
        server.stop()
        XCTAssertEqual(server.requestsInFlight, 0)
    }

    /// An answer's fields beyond what the stack holds for them (1 KiB) take the other path and all arrive, in order.
    func testAnswerFieldsPastTheStackAllArriveInOrder() throws {
        let fields = (1...80).map { ("X-Field-\($0)", String(repeating: "v", count: $0)) }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 1)) { _ in
            var headers = TrellisHeaders()
            for (name, value) in fields { headers.add(name, value) }
            return TrellisResponse(status: 200, headers: headers, body: Array("ok".utf8))
        }
        try server.start()
        defer { server.stop() }
        let reply = try exchange(server.port, Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let expected = fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        XCTAssertTrue(reply.contains(expected), reply)
        XCTAssertTrue(reply.hasSuffix("ok"), reply)
    }

    /// A taken body's reservation goes to the server with it (moved when it came from another budget) and is
    /// given back once the answer is sent.
    func testATakenBodysReservationIsGivenBackOnceSent() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1 << 20))
        let other = try XCTUnwrap(HTTPMemoryBudget(limit: 1 << 20))
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 1), memoryBudget: budget
        ) { request in
            let from = request.path == "/other" ? other : budget
            guard from.reserve(4096), let base = malloc(4096)?.assumingMemoryBound(to: UInt8.self) else {
                return TrellisResponse(status: 503)
            }
            base.initialize(repeating: UInt8(ascii: "t"), count: 100)
            return TrellisResponse(status: 200, body: .buffer(HTTPBodyBuffer(adopting: base, count: 100, held: 4096, budget: from)))
        }
        try server.start()
        defer { server.stop() }
        for path in ["/same", "/other"] {
            let reply = try exchange(server.port, Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            XCTAssertTrue(reply.hasSuffix(String(repeating: "t", count: 100)), reply)
            let deadline = ContinuousClock.now + .seconds(5)
            while budget.inUse != 0 && ContinuousClock.now < deadline { usleep(10_000) }
            XCTAssertEqual(budget.inUse, 0, path)
            XCTAssertEqual(other.inUse, 0, path)
        }
    }
}

import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

/// Shared pieces of the hostile-input suite: the real server with small limits, raw requests,
/// and the invariants checked after every case (no 5xx, every 4xx is problem+json, /healthz).
enum Hostile {
    /// One request body per POST endpoint, valid as it stands, with `N` marking a number slot
    /// and `A` (in `arrayTemplate`) marking an array slot.
    struct Endpoint {
        let path: String
        let valid: String
        /// `valid` with its number slot replaced by `N`.
        let numberTemplate: String
        /// A body with its main list replaced by `A`.
        let arrayTemplate: String
        /// A top-level member of `valid`: sent first with a wrong value, then `valid`'s own.
        let duplicatedKey: String
    }

    static let endpoints: [Endpoint] = [
        Endpoint(
            path: "/v1/outline/expansion",
            valid: #"{"nodes":[{"id":"a","children":[{"id":"b"}]}],"selection":"b"}"#,
            numberTemplate: #"{"nodes":[{"id":"a","children":[{"id":"b"}]}],"selection":N}"#,
            arrayTemplate: #"{"nodes":A}"#,
            duplicatedKey: "nodes"),
        Endpoint(
            path: "/v1/outline/rows",
            valid: #"{"nodes":[{"id":"a","children":[{"id":"b"}]}],"selection":"b","offset":0}"#,
            numberTemplate: #"{"nodes":[{"id":"a","children":[{"id":"b"}]}],"selection":"b","offset":N}"#,
            arrayTemplate: #"{"nodes":A}"#,
            duplicatedKey: "nodes"),
        Endpoint(
            path: "/v1/flow/layout",
            valid: #"{"containerWidth":100,"items":[{"width":10,"height":5}]}"#,
            numberTemplate: #"{"containerWidth":N,"items":[{"width":10,"height":5}]}"#,
            arrayTemplate: #"{"containerWidth":100,"items":A}"#,
            duplicatedKey: "containerWidth"),
        Endpoint(
            path: "/v1/sections/toggle",
            valid: #"{"sections":[{"id":"a","items":["x"]}],"toggle":"a"}"#,
            numberTemplate: #"{"sections":[{"id":"a","items":["x"]}],"toggle":N}"#,
            arrayTemplate: #"{"sections":A}"#,
            duplicatedKey: "sections"),
        Endpoint(
            path: "/v1/drawer/state",
            valid: #"{"isPresented":false,"action":"toggle","container":{"width":390,"height":844},"drawerWidth":200}"#,
            numberTemplate: #"{"isPresented":false,"action":"toggle","container":{"width":390,"height":844},"drawerWidth":N}"#,
            arrayTemplate: #"{"isPresented":false,"action":"toggle","container":{"width":390,"height":844},"drawerWidth":A}"#,
            duplicatedKey: "drawerWidth"),
    ]

    /// The real server with every feature endpoint, on an ephemeral loopback port.
    static func server(
        maxBodyBytes: Int = 64 << 10, maxConnections: Int = 1024, connectionTimeout: Int = 30, threads: Int = 2,
        connectionMemory: Int = 256 << 10, headerTimeout: Int = 10, maxConnectionsPerIP: Int = 0,
        bodyTimeout: Int = 10, sendTimeout: Int = 10, memoryBudget: HTTPMemoryBudget? = nil
    ) throws -> LiveServer {
        // 256 KiB of connection memory (--connection-memory) so that 64 KiB headers fit.
        try LiveServer(
            http: HTTPServerConfiguration(
                threads: threads, maxBodyBytes: maxBodyBytes, maxConnections: maxConnections,
                connectionTimeout: connectionTimeout, connectionMemoryLimit: connectionMemory,
                headerTimeout: headerTimeout, maxConnectionsPerIP: maxConnectionsPerIP,
                bodyTimeout: bodyTimeout, sendTimeout: sendTimeout),
            service: ServiceConfiguration(memoryBudget: memoryBudget))
    }

    /// A flow layout body of about `bytes` bytes (items of varied widths; its answer is about 3.5×).
    static func largeFlowBody(bytes: Int) -> String {
        var items: [String] = []
        var size = 0
        while size < bytes - 64 {
            let item = #"{"width":\#(10 + items.count % 50),"height":5}"#
            items.append(item)
            size += item.utf8.count + 1
        }
        return #"{"containerWidth":1000,"items":[\#(items.joined(separator: ","))]}"#
    }

    /// A field of /proc/self/status in kB (VmRSS by default) of this process, where the server runs, in bytes.
    static func residentBytes(field: String = "VmRSS:") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = Int(line.split(separator: " ")[1])
        else { return 0 }
        return kilobytes << 10
    }

    /// The head of a POST with a JSON content type and an exact Content-Length.
    static func head(_ path: String, length: Int, extra: String = "") -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\(extra)\r\n".utf8)
    }

    /// POSTs raw body bytes on a fresh connection and reads the answer.
    static func post(_ server: LiveServer, _ path: String, _ body: [UInt8]) throws -> TestResponse {
        let connection = try server.connect()
        try connection.send(head(path, length: body.count) + body)
        return try connection.readResponse()
    }

    static func post(_ server: LiveServer, _ path: String, _ body: String) throws -> TestResponse {
        try post(server, path, Array(body.utf8))
    }

    /// A raw connection with its own receive timeout (and Nagle off, for byte-by-byte sends).
    static func connect(_ server: LiveServer, timeoutSeconds: Int = 10) throws -> TestConnection {
        let connection = try TestConnection(port: server.port, timeoutSeconds: timeoutSeconds)
        var one: Int32 = 1
        setsockopt(connection.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return connection
    }

    /// What a connection does next when no answer is expected.
    enum Ending: Equatable {
        case closed
        case reset
        case timedOut
        case answered(String)
    }

    /// Reads straight from the socket (use on a connection with nothing buffered) until the peer
    /// closes it, the receive timeout passes, or bytes arrive (the first line is returned).
    static func ending(of connection: TestConnection) -> Ending {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return .closed }
        if n < 0 { return errno == ECONNRESET ? .reset : .timedOut }
        let text = String(decoding: chunk[0..<n], as: UTF8.self)
        return .answered(String(text.prefix { $0 != "\r" }))
    }

    /// Sends bytes one at a time, pausing `pauseMicros` after each so that they arrive apart.
    static func trickle(_ bytes: [UInt8], on connection: TestConnection, pauseMicros: UInt32 = 100) throws {
        for byte in bytes {
            XCTAssertTrue(try connection.send([byte]), "the server closed the connection mid-request")
            if pauseMicros > 0 { usleep(pauseMicros) }
        }
    }
}

/// Hands test objects (sockets, the live server) to other threads; each test keeps its own use
/// of them race-free.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
}

/// The base of the hostile-input test cases: the invariants every case checks.
class HostileTestCase: XCTestCase {
    /// The suite's invariants for any answer: never a 5xx (503 only when `overload` allows it),
    /// and every 4xx is a complete problem+json document.
    func assertSane(_ response: TestResponse, overload: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        if overload && response.status == 503 {
            assertProblem(response, 503, file: file, line: line)
            return
        }
        XCTAssertLessThan(response.status, 500, response.text, file: file, line: line)
        if (400..<500).contains(response.status) {
            assertProblem(response, response.status, file: file, line: line)
        }
    }

    /// A problem+json answer with this status, complete, that echoes at most a little input.
    func assertProblem(_ response: TestResponse, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, String(response.text.prefix(300)), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let json = response.json
        XCTAssertEqual(json["status"] as? Int, status, file: file, line: line)
        XCTAssertEqual(json["type"] as? String, "about:blank", file: file, line: line)
        XCTAssertEqual(json["title"] as? String, TrellisStatus.reason(status), file: file, line: line)
        XCTAssertFalse((json["detail"] as? String ?? "").isEmpty, file: file, line: line)
        // At most 100 problems of at most 100 bytes of input each, plus the prose around them.
        XCTAssertLessThan(response.body.count, 64 << 10, file: file, line: line)
    }

    /// One of libmicrohttpd's own error pages: it answers some protocol errors before Trellis
    /// sees the request, with an HTML body and no Content-Type (see docs/limits.md).
    func assertLibraryPage(_ response: TestResponse, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertNil(response.header("Content-Type"), file: file, line: line)
        XCTAssertEqual(response.header("Connection"), "close", file: file, line: line)
        XCTAssertTrue(response.text.hasPrefix("<html>"), response.text, file: file, line: line)
    }

    /// GET /healthz on a fresh connection answers 200 {"status":"ok"}.
    func assertHealthy(_ server: LiveServer, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let response = try server.request("GET", "/healthz")
            XCTAssertEqual(response.status, 200, file: file, line: line)
            XCTAssertEqual(response.text, #"{"status":"ok"}"#, file: file, line: line)
        } catch {
            XCTFail("/healthz did not answer: \(error)", file: file, line: line)
        }
    }

    /// Every request the server began has completed and been freed (within a few seconds, for
    /// connections the server is still closing).
    func assertNoRequestsLeft(_ server: LiveServer, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while server.server.requestsInFlight > 0 && Date() < deadline {
            usleep(10_000)
        }
        XCTAssertEqual(server.server.requestsInFlight, 0, "requests still held by the server", file: file, line: line)
    }
}

import Foundation
import TrellisServer
import TrellisHTTP
import Synchronization
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Many clients at once against several worker threads: each gets exactly the answer a lone
/// request gets, and the shared counters add up. Handlers run on libmicrohttpd's worker threads
/// and share the metrics, the request-id counter, the access log and the shim's connection
/// counts; `make tsan-test` runs this under ThreadSanitizer, which is what makes it a race test.
final class ConcurrentRequestsTests: XCTestCase {
    /// One of each kind of answer every feature endpoint gives, and the operations endpoints.
    private static let requests: [(method: String, path: String, json: String?)] = [
        ("POST", "/v1/outline/expansion", #"{"nodes":[{"id":"root","children":[{"id":"a","children":[{"id":"a1"}]},{"id":"b"}]}],"selection":"a1"}"#),
        ("POST", "/v1/outline/rows", #"{"nodes":[{"id":1,"parent":null},{"id":2,"parent":1},{"id":3,"parent":2}],"parentKey":"parent","selection":3,"offset":1,"limit":2}"#),
        ("POST", "/v1/outline/rows", #"{"nodes":[{"id":1},{"id":1}]}"#),
        ("POST", "/v1/flow/layout", FlowSeedExample.request),
        ("POST", "/v1/flow/layout", #"{"containerWidth":100,"maxRows":1,"overflowIndicator":{"width":20,"height":10},"lineBreaking":"balanced","items":[{"width":60,"height":10},{"width":60,"height":10}]}"#),
        ("POST", "/v1/sections/toggle", #"{"sections":[{"id":1,"items":["a"]},{"id":2,"items":["b","c"]}],"mode":"single","collapsible":false,"expanded":[1],"actions":[{"type":"collapseAll"},{"type":"expand","section":2}]}"#),
        ("POST", "/v1/drawer/state", #"{"isPresented":false,"action":"toggle","container":{"width":390,"height":844},"drawerWidth":200,"spring":{"response":0.55,"dampingFraction":0.825},"frameRate":60}"#),
        ("POST", "/v1/drawer/state", #"{"container":{"width":-1}}"#),
        ("POST", "/v1/flow/layout", #"{"containerWidth":"#),
        ("GET", "/healthz", nil),
        ("GET", "/nowhere", nil),
    ]

    func testClientsOnManyWorkerThreadsGetTheAnswersALoneClientGets() throws {
        try exercise(threads: 4)
    }

    func testClientsInThreadPerConnectionModeGetTheAnswersALoneClientGets() throws {
        try exercise(threads: 0)
    }

    private func exercise(threads: Int, clients: Int = 8, rounds: Int = 3) throws {
        let reference = TrellisService()
        let expected = Self.requests.map { call(reference, $0.method, $0.path, json: $0.json) }

        // The access log is on, so that its writes from every worker are part of the run; its
        // lines go to /dev/null while the clients run, and failures are reported afterwards.
        let server = try LiveServer(
            http: HTTPServerConfiguration(threads: threads), service: ServiceConfiguration(log: AccessLog(enabled: true)))
        let port = server.port
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        let silenced = StandardOutput.silence()
        for client in 0..<clients {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                do {
                    var connection = try TestConnection(port: port)
                    for round in 0..<rounds {
                        for step in 0..<Self.requests.count {
                            let i = (client + step) % Self.requests.count
                            let (method, path, json) = Self.requests[i]
                            if (round + step) % 5 == 4 { connection = try TestConnection(port: port) }
                            let response = try Self.send(method, path, json, on: connection)
                            let want = expected[i]
                            if response.status != want.status || response.body != want.body
                                || response.header("Content-Type") != want.header("Content-Type") {
                                failures.withLock {
                                    $0.append("client \(client): \(method) \(path): \(response.status) \(response.text)")
                                }
                            }
                            _ = try Self.send("GET", "/metrics", nil, on: TestConnection(port: port))
                        }
                    }
                } catch {
                    failures.withLock { $0.append("client \(client): \(error)") }
                }
            }
            thread.start()
        }
        let finished = done.wait(timeout: .now() + 120)
        let metrics = try? server.request("GET", "/metrics").text
        StandardOutput.restore(silenced)
        XCTAssertEqual(finished, .success, "the clients did not finish within 120 s")
        XCTAssertEqual(failures.withLock { $0 }, [])

        // Every request was counted once: the feature and operations requests, plus the
        // /metrics reads (the last of which counts itself only after it has been answered).
        let sent = clients * rounds * Self.requests.count * 2
        let text = try XCTUnwrap(metrics)
        let total = text.split(separator: "\n")
            .filter { $0.hasPrefix("trellis_requests_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
        XCTAssertEqual(total, sent, text)
        XCTAssertTrue(text.contains("trellis_requests_in_flight 1\n"), text)
    }

    /// One request on an open keep-alive connection.
    private static func send(_ method: String, _ path: String, _ json: String?, on connection: TestConnection) throws -> TestResponse {
        let body = Array((json ?? "").utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        try connection.send(Array(head.utf8) + body)
        return try connection.readResponse(method: method)
    }
}

/// Points file descriptor 1 at /dev/null and back (the access log writes there directly).
enum StandardOutput {
    static func silence() -> Int32 {
        fflush(nil)
        let saved = dup(1)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, 1)
        close(null)
        return saved
    }

    static func restore(_ saved: Int32) {
        fflush(nil)
        dup2(saved, 1)
        close(saved)
    }
}

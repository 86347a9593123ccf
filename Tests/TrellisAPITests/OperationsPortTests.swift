import Foundation
import TrellisServer
import TrellisHTTP
import Synchronization
import TrellisText
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// The operations listener (--ops-port): /healthz, /readyz and /metrics on a daemon and thread of
/// their own, answered while every API worker is busy; its /healthz turns 503 only when the API
/// server's heartbeat shows a worker on one request for longer than any bounded request takes.
final class OperationsPortTests: XCTestCase {
    /// Holds every request to /test/block in the handler (so the worker is busy) until opened.
    final class Gate: Sendable {
        let entered = Atomic<Int>(0)
        private let opened = Atomic<Bool>(false)
        func open() { opened.store(true, ordering: .releasing) }
        var isOpen: Bool { opened.load(ordering: .acquiring) }

        var endpoint: JSONEndpoint {
            JSONEndpoint(path: "/test/block") { [self] _, call in
                entered.wrappingAdd(1, ordering: .relaxed)
                while !isOpen { usleep(5_000) }
                call.json.beginObject()
                call.json.endObject()
            }
        }
    }

    private struct Setup {
        let gate: Gate
        let api: LiveServer
        let operations: HTTPServer
        let port: Int
    }

    /// The API server (2 workers, with /test/block) and its operations listener, as main.swift starts them.
    private func start(stuckAfter: Duration?) throws -> Setup {
        let gate = Gate()
        let api = try LiveServer(
            http: HTTPServerConfiguration(threads: 2),
            service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection), metricsOnAPIPort: false),
            endpoints: Features.endpoints + [gate.endpoint])
        let server = api.server
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 1, maxBodyBytes: 4096, maxConnections: 64)
        configuration.managesMemory = false
        let operations = HTTPServer(
            configuration: configuration,
            handler: api.service.operationsHandler(longestBusyWorker: { server.longestBusyWorker }, stuckAfter: stuckAfter))
        let port = try operations.start()
        return Setup(gate: gate, api: api, operations: operations, port: port)
    }

    private func get(_ port: Int, _ path: String) throws -> TestResponse {
        let connection = try TestConnection(port: port, timeoutSeconds: 5)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return try connection.readResponse()
    }

    /// Sends a request to /test/block and waits until a worker is in its handler.
    private func block(_ setup: Setup, count: Int) throws -> TestConnection {
        let connection = try TestConnection(port: setup.api.port, timeoutSeconds: 10)
        try connection.send("POST /test/block HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        let deadline = Date().addingTimeInterval(5)
        while setup.gate.entered.load(ordering: .relaxed) < count && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(setup.gate.entered.load(ordering: .relaxed), count, "a worker took the request")
        return connection
    }

    func testTheOperationsPortAnswersWhileEveryWorkerIsBusy() throws {
        let setup = try start(stuckAfter: .seconds(60))
        defer { setup.operations.stop() }
        defer { setup.gate.open() }
        // Each worker takes one: the second connection can only be accepted by the worker still free.
        let first = try block(setup, count: 1)
        let second = try block(setup, count: 2)
        // The API port's own /healthz waits behind them.
        let waiting = try TestConnection(port: setup.api.port, timeoutSeconds: 1)
        try waiting.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(Hostile.ending(of: waiting), .timedOut, "both API workers are busy")
        let health = try get(setup.port, "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.text, #"{"status":"ok"}"#)
        // The same fields as on the API port: never stored by a cache, never sniffed.
        XCTAssertEqual(health.header("Cache-Control"), "no-store")
        XCTAssertEqual(health.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(try get(setup.port, "/readyz").status, 200)
        let metrics = try get(setup.port, "/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.text.contains("trellis_requests_in_flight 2\n"), metrics.text)
        XCTAssertEqual(try get(setup.port, "/v1/flow/layout").status, 404)
        XCTAssertGreaterThan(setup.api.server.longestBusyWorker, .milliseconds(900))
        setup.gate.open()
        XCTAssertEqual(try first.readResponse().status, 200)
        XCTAssertEqual(try second.readResponse().status, 200)
        // With the operations port, /metrics is served there only.
        XCTAssertEqual(try setup.api.request("GET", "/metrics").status, 404)
        XCTAssertFalse(try setup.api.request("GET", "/").text.contains("/metrics"))
        XCTAssertEqual(setup.api.server.longestBusyWorker, .zero)
    }

    /// stuckAfter 0.3 s (the default is --request-timeout + 10 s): 200 while the worker is fresh,
    /// 503 problem+json once it has been on the one request longer, 200 again once it is done.
    func testHealthzIs503WhileAWorkerIsStuck() throws {
        let setup = try start(stuckAfter: .milliseconds(300))
        defer { setup.operations.stop() }
        defer { setup.gate.open() }
        XCTAssertEqual(try get(setup.port, "/healthz").status, 200)
        let held = try block(setup, count: 1)
        XCTAssertEqual(try get(setup.port, "/healthz").status, 200, "busy for less than the threshold")
        usleep(400_000)
        let stuck = try get(setup.port, "/healthz")
        XCTAssertEqual(stuck.status, 503)
        XCTAssertEqual(stuck.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(try get(setup.port, "/readyz").status, 200, "readiness is the API's own")
        setup.gate.open()
        XCTAssertEqual(try held.readResponse().status, 200)
        XCTAssertEqual(try get(setup.port, "/healthz").status, 200)
    }

    func testTheStuckThresholdFollowsTheRequestDeadline() {
        XCTAssertEqual(ServiceConfiguration(requestTimeout: .seconds(5)).stuckWorkerAfter, .seconds(15))
        XCTAssertNil(ServiceConfiguration(requestTimeout: nil).stuckWorkerAfter)
        // Without the operations port, /metrics stays on the API port.
        XCTAssertEqual(call(TrellisService(), "GET", "/metrics").status, 200)
    }
}

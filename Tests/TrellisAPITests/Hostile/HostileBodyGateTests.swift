import Foundation
import TrellisServer
import Synchronization
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// The body gate under attack: large bodies are read a few per worker thread at a time, and the
/// others wait in a queue bounded in length and in time, so no number of waiting connections holds
/// the memory budget for longer than one body deadline, and an ordinary client is answered at once
/// (200, or 503 with Retry-After) instead of waiting behind them.
final class HostileBodyGateTests: HostileTestCase {
    /// Waits up to `seconds` for `condition`; the time it took, or nil.
    private func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            if condition() { return Date().timeIntervalSince(started) }
            usleep(20_000)
        }
        return condition() ? Date().timeIntervalSince(started) : nil
    }

    /// Parked bodies: 300 connections each declare 8 MiB, send 64 KiB + 100 bytes once and wait (the
    /// queue had no bound in time or length: the budget stayed held until every body had had its
    /// turn, one second each, and an ordinary POST waited behind them all). Now the budget is back under
    /// 16 MiB within --body-timeout + 3 s of the last head, and an ordinary 200 KB POST is answered
    /// within 2 s throughout: 200, or 503 with Retry-After.
    func testParkedBodiesHoldTheBudgetForAtMostOneDeadline() throws {
        let bodyTimeout = 2
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 128 << 20))
        let server = try Hostile.server(
            maxBodyBytes: 8 << 20, connectionTimeout: 60, connectionMemory: 32 << 10, bodyTimeout: bodyTimeout,
            memoryBudget: budget)
        let start = Array(repeating: UInt8(ascii: " "), count: (64 << 10) + 100)
        var parked: [TestConnection] = []
        for _ in 0..<300 {
            let connection = try Hostile.connect(server)
            _ = try connection.send(Hostile.head("/v1/flow/layout", length: 8 << 20) + start)
            parked.append(connection)
        }
        let lastHead = Date()
        let ordinary = Array(Hostile.largeFlowBody(bytes: 200_000).utf8)
        var answers: [(status: Int, seconds: Double)] = []
        var peak = 0
        while Date().timeIntervalSince(lastHead) < Double(bodyTimeout) + 1 {
            peak = max(peak, budget.inUse)
            let sent = Date()
            let connection = try Hostile.connect(server, timeoutSeconds: 5)
            try connection.send(Hostile.head("/v1/flow/layout", length: ordinary.count) + ordinary)
            let response = try connection.readResponse()
            answers.append((response.status, Date().timeIntervalSince(sent)))
            if response.status == 503 {
                XCTAssertEqual(response.header("Retry-After"), "1", response.text)
            } else {
                XCTAssertEqual(response.status, 200, response.text)
            }
            usleep(300_000)
        }
        let freed = waitFor(Double(bodyTimeout) + 3 - Date().timeIntervalSince(lastHead)) { budget.inUse < 16 << 20 }
        print("parked bodies: peak \(peak >> 20) MiB held; ordinary POSTs \(answers.map { "\($0.status) in \(String(format: "%.2f", $0.seconds)) s" })")
        XCTAssertNotNil(freed, "still \(budget.inUse >> 20) MiB held \(bodyTimeout) + 3 s after the last head")
        XCTAssertTrue(answers.allSatisfy { $0.seconds < 2 }, "an ordinary POST waited 2 s or more: \(answers)")
        XCTAssertTrue(answers.contains { $0.status == 200 }, "no ordinary POST was served: \(answers)")
        let metrics = try server.request("GET", "/metrics").text
        XCTAssertTrue(metrics.contains("trellis_body_gate_waits_total"), metrics)
        XCTAssertFalse(metrics.contains("trellis_body_gate_refusals_total 0\n"), "the queue refused no one")
        withExtendedLifetime(parked) {}
        assertHealthy(server)
    }

    /// Holds every request to /test/block in the handler (so its worker is busy) until opened.
    final class Block: Sendable {
        let entered = Atomic<Int>(0)
        private let opened = Atomic<Bool>(false)
        func open() { opened.store(true, ordering: .releasing) }

        var endpoint: JSONEndpoint {
            JSONEndpoint(path: "/test/block") { [self] _, call in
                entered.wrappingAdd(1, ordering: .relaxed)
                while !opened.load(ordering: .acquiring) { usleep(5_000) }
                call.json.beginObject()
                call.json.endObject()
            }
        }
    }

    /// A body the server cannot read in time through no fault of its client: its worker computes
    /// another request past the body's deadline while the body's bytes wait unread. It used to be
    /// cut off without an answer; now it is refused with 503 and Retry-After, which clients retry.
    func testABodyTheServerCouldNotReadInTimeIsAnswered503NotCutOff() throws {
        let block = Block()
        let server = try LiveServer(
            http: HTTPServerConfiguration(threads: 1, maxBodyBytes: 2 << 20, bodyTimeout: 1),
            endpoints: Features.endpoints + [block.endpoint])
        defer { block.open() }
        let body = Array(Hostile.largeFlowBody(bytes: 1 << 20).utf8)
        // The upload's head and first bytes: its body deadline starts.
        let upload = try Hostile.connect(server)
        try upload.send(Hostile.head("/v1/flow/layout", length: body.count) + body.prefix(1000))
        usleep(200_000)
        // The only worker is taken by another request for longer than the body deadline.
        let blocked = try Hostile.connect(server)
        try blocked.send(Hostile.head("/test/block", length: 2) + Array("{}".utf8))
        XCTAssertNotNil(waitFor(5) { block.entered.load(ordering: .relaxed) == 1 }, "a worker took the blocking request")
        // The client sends the rest at once: it waits in the socket, unread.
        let rest = Array(body.dropFirst(1000))
        let shared = Shared(value: upload)
        let sender = Thread { _ = try? shared.value.send(rest) }
        sender.start()
        usleep(2_000_000)
        block.open()
        let response = try upload.readResponse()
        XCTAssertEqual(response.status, 503, response.text)
        XCTAssertEqual(response.header("Retry-After"), "1")
        XCTAssertTrue(response.text.contains("in time"), response.text)
        XCTAssertEqual(try blocked.readResponse().status, 200)
        // The next one is read at once and served.
        XCTAssertEqual(try Hostile.post(server, "/v1/flow/layout", body).status, 200)
    }
}

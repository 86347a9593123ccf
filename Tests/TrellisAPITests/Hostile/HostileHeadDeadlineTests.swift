import Foundation
import Synchronization
import XCTest
import TrellisTestSupport

/// Slowloris: a connection must send a complete request head within --header-timeout, however
/// slowly it trickles, and one address may be limited to --max-connections-per-ip connections.
final class HostileHeadDeadlineTests: HostileTestCase {
    /// Trickles `head` one byte every `pauseMicros` on each connection until `stop` is set or
    /// the bytes run out.
    private func trickler(_ connections: [TestConnection], _ head: [UInt8], pauseMicros: UInt32, stop: StopFlag) -> Thread {
        let shared = Shared(value: connections)
        return Thread {
            for byte in head {
                if stop.isSet { return }
                for connection in shared.value { _ = try? connection.send([byte]) }
                usleep(pauseMicros)
            }
        }
    }

    final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }

    private let endlessHead = Array(("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + String(repeating: "s", count: 200)).utf8)

    /// As many trickling connections as libmicrohttpd admits (--max-connections 2 admits 18),
    /// each sending one header byte every 0.5 s: a normal client waiting behind them is answered
    /// once the header deadline (2 s) has closed them: a 200 within --header-timeout + 2 s.
    func testANormalClientIsAnsweredDuringASlowloris() throws {
        let headerTimeout = 2
        let server = try Hostile.server(maxConnections: 2, connectionTimeout: 30, headerTimeout: headerTimeout)
        let slow = try (0..<18).map { _ in try Hostile.connect(server) }
        let stop = StopFlag()
        let thread = trickler(slow, endlessHead, pauseMicros: 500_000, stop: stop)
        thread.start()
        defer { stop.set() }
        usleep(300_000)
        // The client waits for an answer; a 503 (the closed connections may not all be counted
        // out yet when it is let in) is retried after its Retry-After, as a client would.
        let started = Date()
        var answers: [String] = []
        var status = 0
        while status != 200 && Date().timeIntervalSince(started) < 12 {
            let client = try Hostile.connect(server, timeoutSeconds: 12)
            try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            assertSane(response, overload: true)
            status = response.status
            answers.append("\(status) after \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
            if status == 503 { sleep(UInt32(response.header("Retry-After") ?? "1") ?? 1) }
        }
        let waited = Date().timeIntervalSince(started)
        print("slowloris: the normal client was answered \(answers.joined(separator: ", then "))")
        XCTAssertEqual(status, 200)
        XCTAssertLessThan(waited, Double(headerTimeout + 2))
        stop.set()
        assertHealthy(server)
    }

    /// A connection that trickles its head one byte every 0.3 s is closed by the server after
    /// about --header-timeout (2 s), although each byte restarts the idle timeout (30 s).
    func testATricklingConnectionIsClosedAfterTheHeaderTimeout() throws {
        let server = try Hostile.server(connectionTimeout: 30, headerTimeout: 2)
        let connection = try Hostile.connect(server, timeoutSeconds: 8)
        let stop = StopFlag()
        let thread = trickler([connection], endlessHead, pauseMicros: 300_000, stop: stop)
        let started = Date()
        thread.start()
        defer { stop.set() }
        let ending = Hostile.ending(of: connection)
        let elapsed = Date().timeIntervalSince(started)
        print("trickling connection: \(ending) after \(String(format: "%.2f", elapsed)) s")
        XCTAssertTrue(ending == .closed || ending == .reset, "\(ending)")
        XCTAssertGreaterThan(elapsed, 1.5)
        XCTAssertLessThan(elapsed, 4)
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// Keep-alive: the next head must arrive within --header-timeout of the previous answer, so
    /// an idle keep-alive connection is closed after --header-timeout (2 s), not after the 30 s
    /// idle timeout; a head that arrives in time, even slowly, is answered, and so is a body
    /// that takes longer than the deadline (it covers the head only).
    func testTheDeadlineRestartsAfterEachAnswerAndCoversTheHeadOnly() throws {
        let server = try Hostile.server(connectionTimeout: 30, headerTimeout: 2)
        let connection = try Hostile.connect(server, timeoutSeconds: 8)
        try Hostile.trickle(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8), on: connection, pauseMicros: 30_000)
        XCTAssertEqual(try connection.readResponse().status, 200)
        usleep(1_200_000)
        let flow = Hostile.endpoints[2]
        let body = Array(flow.valid.utf8)
        try connection.send(Hostile.head(flow.path, length: body.count))
        try Hostile.trickle(body, on: connection, pauseMicros: 3_000_000 / UInt32(body.count))
        XCTAssertEqual(try connection.readResponse().status, 200)
        let started = Date()
        let ending = Hostile.ending(of: connection)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(ending == .closed || ending == .reset, "\(ending)")
        XCTAssertGreaterThan(elapsed, 1.5)
        XCTAssertLessThan(elapsed, 4)
        assertNoRequestsLeft(server)
    }

    /// --max-connections-per-ip 2: a third connection from the same address is closed without
    /// an answer; once one of the two closes, the address is served again.
    func testConnectionsPerAddressAreLimited() throws {
        let server = try Hostile.server(maxConnectionsPerIP: 2)
        var held: [TestConnection] = try (0..<2).map { _ in try Hostile.connect(server) }
        let third = try Hostile.connect(server, timeoutSeconds: 5)
        _ = try third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let ending = Hostile.ending(of: third)
        XCTAssertTrue(ending == .closed || ending == .reset, "\(ending)")
        for connection in held {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().status, 200)
        }
        held.removeFirst()
        // The server notices the close asynchronously.
        var status: Int?
        let deadline = Date().addingTimeInterval(5)
        repeat {
            status = try? server.request("GET", "/healthz").status
            if status != 200 { usleep(50_000) }
        } while status != 200 && Date() < deadline
        XCTAssertEqual(status, 200)
        _ = held
    }
}

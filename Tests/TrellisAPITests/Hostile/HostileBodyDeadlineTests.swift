import Foundation
import TrellisServer
import TrellisHTTP
import Synchronization
import XCTest
@testable import TrellisAPI

/// Slow bodies and unread answers: a request body must arrive within --body-timeout and an
/// answer be taken within --send-timeout, however slowly the client trickles (each byte restarts
/// libmicrohttpd's idle timeout), so that no client holds the memory budget for longer.
final class HostileBodyDeadlineTests: HostileTestCase {
    final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }

    /// Waits up to `seconds` for `condition`; the time it took, or nil.
    private func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            if condition() { return Date().timeIntervalSince(started) }
            usleep(20_000)
        }
        return condition() ? Date().timeIntervalSince(started) : nil
    }

    /// The finding, scaled down: 2 connections (the body gate reads two large bodies at a time on each
    /// worker thread, so both are read whichever threads they land on) each declaring a 2 MiB body
    /// and sending 1 MiB + 1 KiB (each buffer then holds 2 MiB: together they fill the 4.5 MiB
    /// budget), then 1 byte every 0.4 s. With --body-timeout 1 the budget is back to
    /// idle (0) within about 1 s + the watcher's 250 ms, and ordinary POSTs are served while the
    /// bytes still trickle.
    func testSlowBodiesGiveTheBudgetBackAtTheBodyDeadline() throws {
        let bodyTimeout = 1
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: (4 << 20) + (512 << 10)))
        let server = try Hostile.server(
            maxBodyBytes: 2 << 20, connectionTimeout: 30, connectionMemory: 64 << 10, bodyTimeout: bodyTimeout,
            memoryBudget: budget)
        let started = Date()
        let partial = Array(repeating: UInt8(ascii: " "), count: (1 << 20) + (1 << 10))
        let slow = try (0..<2).map { _ in
            let connection = try Hostile.connect(server)
            _ = try connection.send(Hostile.head(flow.path, length: 2 << 20) + partial)
            return connection
        }
        let filled = waitFor(10) { budget.inUse >= 4 << 20 }
        XCTAssertNotNil(filled, "the slow bodies filled the budget (\(budget.inUse) bytes)")
        // Every head has arrived by now: each body's deadline ends at most --body-timeout from here.
        let full = Date()
        let stop = StopFlag()
        let shared = Shared(value: slow)
        let trickler = Thread {
            while !stop.isSet {
                for connection in shared.value { _ = try? connection.send([UInt8(ascii: " ")]) }
                usleep(400_000)
            }
        }
        trickler.start()
        defer { stop.set() }
        let idle = waitFor(Double(bodyTimeout) + 8) { budget.inUse == 0 }
        let elapsed = Date().timeIntervalSince(full)
        print("slow bodies: the budget was full (\(budget.limit) bytes) after \(String(format: "%.2f", full.timeIntervalSince(started))) s; "
            + "\(budget.inUse) in use \(String(format: "%.2f", elapsed)) s later")
        XCTAssertNotNil(idle, "the budget still holds \(budget.inUse) bytes")
        XCTAssertLessThan(elapsed, Double(bodyTimeout) + 4, "well before the 30 s idle timeout")
        // The bytes still trickle; ordinary requests are served.
        for _ in 0..<5 {
            let response = try Hostile.post(server, flow.path, flow.valid)
            XCTAssertEqual(response.status, 200, response.text)
        }
        stop.set()
        assertHealthy(server)
        assertNoRequestsLeft(server)
        XCTAssertEqual(budget.inUse, 0)
    }

    /// A client socket with a small receive buffer that never reads.
    private static func unreadSocket(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return fd
    }

    /// Four clients send 2 MiB flow requests and never read the ~7 MiB answers (more than the
    /// socket buffers hold): with --send-timeout 1 the answers are dropped and the budget is back
    /// to 0 soon after they were computed (within 60 s even under the sanitizers), not after the
    /// 120 s idle timeout; the clients then read the connection's end before the whole answer.
    func testUnreadAnswersAreDroppedAtTheSendDeadline() throws {
        let sendTimeout = 1
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 256 << 20))
        let server = try Hostile.server(
            maxBodyBytes: 4 << 20, connectionTimeout: 120, connectionMemory: 64 << 10, sendTimeout: sendTimeout,
            memoryBudget: budget)
        let body = Array(Hostile.largeFlowBody(bytes: 2 << 20).utf8)
        let request = Hostile.head(flow.path, length: body.count) + body
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        let started = Date()
        for _ in 0..<4 {
            let fd = Self.unreadSocket(port: server.port)
            sockets.append(fd)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        // Answers are queued once computed (a few seconds in a debug build on a busy machine).
        var peak = 0
        // First the answers held (the budget is 0 before the first request is read, too), then their end.
        _ = waitFor(60) {
            peak = max(peak, budget.inUse)
            return peak > 8 << 20
        }
        let idle = waitFor(60) {
            peak = max(peak, budget.inUse)
            return server.server.requestsInFlight == 0 && budget.inUse == 0
        }
        let elapsed = Date().timeIntervalSince(started)
        print("unread answers: up to \(peak) bytes held; \(budget.inUse) in use after \(String(format: "%.2f", elapsed)) s")
        XCTAssertGreaterThan(peak, 8 << 20, "the answers were held while unread")
        XCTAssertNotNil(idle, "still \(budget.inUse) bytes held, \(server.server.requestsInFlight) requests")
        // What reached the client's side ends before the whole answer: the connection was closed.
        for fd in sockets {
            var chunk = [UInt8](repeating: 0, count: 65536)
            var received = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                received += n
            }
            XCTAssertLessThan(received, 7 << 20, "an answer arrived whole")
        }
        assertHealthy(server)
    }

    private let flow = Hostile.endpoints[2]
}

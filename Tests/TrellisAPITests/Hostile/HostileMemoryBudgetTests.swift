import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// The memory budget over real sockets: clients that upload large requests and never read the
/// answers can't make the process hold more than the budget plus a fixed overhead.
final class HostileMemoryBudgetTests: HostileTestCase {
    /// A client socket with a small receive buffer, so that answers stay on the server's side.
    private static func slowReader(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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

    /// Memory that runs out while a declared body arrives (another upload took it after this one's head was
    /// admitted) is answered 503 with Retry-After once the body is in, drained and held nowhere: the client is
    /// told to retry, not reset.
    func testABodyThatMemoryRunsOutForMidwayIsAnswered503() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 5 << 20))
        let server = try Hostile.server(maxBodyBytes: 4 << 20, memoryBudget: budget)
        let size = (4 << 20) - 4096
        let body = [UInt8](repeating: UInt8(ascii: " "), count: size)
        func waitUntil(inUse bytes: Int) {
            let deadline = Date().addingTimeInterval(10)
            while budget.inUse < bytes && Date() < deadline { usleep(10_000) }
        }
        // Both heads admitted while the budget is free, each with a little of its body.
        let holder = try Hostile.connect(server)
        let refused = try Hostile.connect(server)
        XCTAssertTrue(try holder.send(Hostile.head("/v1/flow/layout", length: size) + Array(body[0..<(16 << 10)])))
        XCTAssertTrue(try refused.send(Hostile.head("/v1/flow/layout", length: size) + Array(body[0..<(16 << 10)])))
        waitUntil(inUse: 64 << 10)
        // The holder's body takes most of the budget; then the other body arrives whole.
        XCTAssertTrue(try holder.send(Array(body[(16 << 10)..<(3 << 20)])))
        waitUntil(inUse: 3 << 20)
        XCTAssertTrue(try refused.send(Array(body[(16 << 10)...])))
        let answer = try refused.readResponse()
        assertProblem(answer, 503)
        XCTAssertNotNil(answer.header("Retry-After"))
        XCTAssertGreaterThan(budget.refusals, 0)
        withExtendedLifetime(holder) {}
        assertHealthy(server)
    }

    /// 200 clients send 1 MiB flow requests and never read the ~3.5 MiB answers.
    func testUnreadAnswersStayWithinTheBudget() throws {
        let budgetBytes = 16 << 20
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: budgetBytes))
        let server = try LiveServer(
            http: HTTPServerConfiguration(threads: 2, maxBodyBytes: 2 << 20, connectionMemoryLimit: 64 << 10, sendTimeout: 0),
            service: ServiceConfiguration(memoryBudget: budget))
        // A 1 MiB flow request; its answer is about 3.5 MiB.
        let body = Array(Hostile.largeFlowBody(bytes: 1 << 20).utf8)
        let request = Hostile.head("/v1/flow/layout", length: body.count) + body
        let before = Hostile.residentBytes()
        var peak = before
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<200 {
            let fd = Self.slowReader(port: server.port)
            sockets.append(fd)
            // The server may refuse the body (503) and stop reading it: a short send is expected then.
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            peak = max(peak, Hostile.residentBytes())
            XCTAssertLessThanOrEqual(budget.inUse, budgetBytes + (4 << 20), "a queued answer may pass the budget by its own size only")
        }
        // Answers pile up (their clients never read) until the budget refuses more; a busy machine
        // may take a while to get there.
        let deadline = Date().addingTimeInterval(30)
        repeat {
            usleep(100_000)
            peak = max(peak, Hostile.residentBytes())
        } while budget.refusals == 0 && Date() < deadline
        for _ in 0..<10 {
            usleep(100_000)
            peak = max(peak, Hostile.residentBytes())
        }
        // Fixed overhead: two parsers for 1 MiB documents, connection buffers, the test's own bytes.
        let overhead = 64 << 20
        print("memory budget: RSS grew by \(peak - before) bytes with a budget of \(budgetBytes); \(budget.refusals) refusals")
        XCTAssertLessThan(peak - before, budgetBytes + overhead, "RSS grew by \(peak - before) bytes")
        XCTAssertGreaterThan(budget.refusals, 0, "the budget was reached")
        assertHealthy(server)
        sockets.forEach { close($0) }
        sockets = []
        // Stopping frees every connection with what it held: all of it is given back.
        server.server.stop()
        XCTAssertEqual(budget.inUse, 0, "memory still accounted after every connection closed")
    }
}

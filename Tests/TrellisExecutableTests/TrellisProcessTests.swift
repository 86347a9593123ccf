import Foundation
import XCTest

/// The `trellis` executable as a user runs it: flags, exit codes, signals, healthcheck.
final class TrellisProcessTests: XCTestCase {
    /// The binary SwiftPM built beside this test bundle.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("trellis")

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// A running server on a free port, read from its "listening on" line.
    final class Running {
        let process = Process()
        let port: Int
        private let err = Pipe()

        /// `stdout`: where the access log goes (nowhere by default).
        init(_ arguments: [String] = [], environment: [String: String] = [:], stdout: Pipe? = nil) throws {
            process.executableURL = TrellisProcessTests.binary
            process.arguments = ["--port", "0", "--host", "127.0.0.1", "--log", "off"] + arguments
            process.environment = environment
            process.standardError = err
            process.standardOutput = stdout ?? FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("\n") {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                  let port = Int(text[range].split(separator: ":").last!) else {
                throw NSError(domain: "trellis did not start: \(text)", code: 1)
            }
            self.port = port
        }

        func terminate() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
        }
    }

    func testHelpAndVersionExit0() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--max-body-bytes"))
        // The features as the registry lists them, text included.
        XCTAssertTrue(help.stdout.contains("(outline, flow, sections, drawer, text, list)"), help.stdout)
        for flag in ["--header-timeout", "TRELLIS_HEADER_TIMEOUT", "--max-connections-per-ip", "TRELLIS_MAX_CONNECTIONS_PER_IP",
                     "--shutdown-delay", "TRELLIS_SHUTDOWN_DELAY", "--body-timeout", "TRELLIS_BODY_TIMEOUT",
                     "--send-timeout", "TRELLIS_SEND_TIMEOUT", "--ops-port", "TRELLIS_OPS_PORT"] {
            XCTAssertTrue(help.stdout.contains(flag), flag)
        }
        let version = try run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("trellis "))
    }

    func testBadConfigurationExits2WithOneLine() throws {
        for arguments in [["--port", "http"], ["--port", "70000"], ["--threads", "-1"], ["--log", "xml"],
                          ["--bogus", "1"], ["--max-body-bytes"], ["stray"], ["--connection-memory", "1"],
                          ["--header-timeout", "0"], ["--max-connections-per-ip", "-1"], ["--shutdown-delay", "-1"],
                          ["--shutdown-delay", "3601"], ["--body-timeout", "0"], ["--send-timeout", "x"],
                          ["--ops-port", "70000"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
        }
        let environment = try run([], environment: ["TRELLIS_PORT": "nope"])
        XCTAssertEqual(environment.status, 2)
        XCTAssertEqual(try run([], environment: ["TRELLIS_HEADER_TIMEOUT": "soon"]).status, 2)
        XCTAssertEqual(try run([], environment: ["TRELLIS_MAX_CONNECTIONS_PER_IP": "many"]).status, 2)
        XCTAssertEqual(try run([], environment: ["TRELLIS_SHUTDOWN_DELAY": "1.5"]).status, 2)
    }

    func testPortInUseExits1() throws {
        let first = try Running()
        let second = try run(["--port", String(first.port), "--host", "127.0.0.1"])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("already in use"), second.stderr)
    }

    func testHealthcheckCommand() throws {
        let server = try Running()
        XCTAssertEqual(try run(["healthcheck", "--port", String(server.port), "--host", "127.0.0.1"]).status, 0)
        XCTAssertEqual(try run(["healthcheck"], environment: ["TRELLIS_PORT": String(server.port)]).status, 0)
        XCTAssertEqual(server.terminate(), 0)
        XCTAssertEqual(try run(["healthcheck", "--port", String(server.port)]).status, 1)
    }

    /// --ops-port: /healthz, /readyz and /metrics there, /metrics no longer on the API port, and
    /// `trellis healthcheck` asks the operations port (here the API port given to it is closed).
    func testOperationsPort() throws {
        let opsPort = freePort()
        let server = try Running(["--ops-port", String(opsPort)])
        // The operations listener starts right after the "listening on" line.
        let deadline = Date().addingTimeInterval(5)
        while status(opsPort, "GET", "/healthz") == nil && Date() < deadline { usleep(20_000) }
        for path in ["/healthz", "/readyz", "/metrics"] {
            XCTAssertEqual(status(opsPort, "GET", path), 200, path)
        }
        XCTAssertEqual(status(server.port, "GET", "/healthz"), 200)
        XCTAssertEqual(status(server.port, "GET", "/metrics"), 404)
        XCTAssertEqual(try run(["healthcheck", "--port", "1", "--ops-port", String(opsPort), "--host", "127.0.0.1"]).status, 0)
        XCTAssertEqual(try run(["--port", "8123", "--ops-port", "8123"]).status, 2)
        XCTAssertEqual(server.terminate(), 0)
        XCTAssertNil(status(opsPort, "GET", "/healthz"), "the operations port closed with the process")
    }

    /// A free loopback port, found by binding port 0.
    func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A connection from `source` (a loopback address) to 127.0.0.1:`port` that has sent `bytes`; nil when refused.
    func dial(from source: String, to port: Int, sending bytes: String) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafePointer(to: &local) { l in
            withUnsafePointer(to: &remote) { r in
                l.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } == 0
                    && r.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } == 0
            }
        }
        let head = Array(bytes.utf8)
        guard connected, head.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == head.count else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The operations port stays answerable while one address holds connections trickling request
    /// heads: the listener's connections were all taken by 64 such connections (its limit, with the
    /// API's 10 s head deadline), and the kubelet's /healthz got 503 or nothing, enough to restart the
    /// pod. Now one address holds at most 8 connections there, each with a 2 s head deadline.
    func testTheOperationsPortAnswersWhileOneAddressTricklesHeads() throws {
        let opsPort = freePort()
        let server = try Running(["--ops-port", String(opsPort)])
        let deadline = Date().addingTimeInterval(5)
        while status(opsPort, "GET", "/healthz") == nil && Date() < deadline { usleep(20_000) }
        // 300 connections from 127.0.0.2, each a head begun and never finished, kept up for 5 s (those
        // the server closes are opened again), one more header byte on each every 0.5 s.
        var attackers: [Int32] = (0..<300).compactMap { _ in dial(from: "127.0.0.2", to: opsPort, sending: "GET /healthz HTTP/1.1\r\nX") }
        var probes: [(status: Int?, seconds: Double)] = []
        let started = Date()
        while Date().timeIntervalSince(started) < 5 {
            for (i, fd) in attackers.enumerated() where fd >= 0 {
                if send(fd, "x", 1, Int32(MSG_NOSIGNAL)) != 1 {
                    close(fd)
                    attackers[i] = dial(from: "127.0.0.2", to: opsPort, sending: "GET /healthz HTTP/1.1\r\nX") ?? -1
                }
            }
            let sent = Date()
            probes.append((status(opsPort, "GET", "/healthz"), Date().timeIntervalSince(sent)))
            usleep(500_000)
        }
        for fd in attackers where fd >= 0 { close(fd) }
        XCTAssertTrue(probes.allSatisfy { $0.status == 200 && $0.seconds < 1 }, "\(probes)")
        XCTAssertEqual(server.terminate(), 0)
    }

    func testEnvironmentConfiguresAndFlagsWin() throws {
        let server = try Running(["--port", "0"], environment: ["TRELLIS_PORT": "1", "TRELLIS_LOG": "json"])
        XCTAssertGreaterThan(server.port, 1)
        XCTAssertEqual(server.terminate(), 0)
    }

    /// SIGTERM while an upload is in flight: that request completes, then the process exits 0.
    func testSIGTERMDuringAnUploadLetsItFinishAndExits0() throws {
        let server = try Running()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let body = Array(#"{"sections":[{"id":"a"}],"toggle":"a"}"#.utf8)
        let head = Array("POST /v1/sections/toggle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        let firstHalf = head + body[..<10]
        XCTAssertEqual(firstHalf.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }, firstHalf.count)
        usleep(200_000)
        kill(server.process.processIdentifier, SIGTERM)
        usleep(300_000)
        XCTAssertTrue(server.process.isRunning, "exited with an upload in flight")
        let rest = Array(body[10...])
        XCTAssertEqual(rest.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }, rest.count)
        var reply = [UInt8](repeating: 0, count: 4096)
        let n = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        XCTAssertGreaterThan(n, 12)
        XCTAssertTrue(String(decoding: reply[..<max(n, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
        XCTAssertEqual(server.process.terminationReason, .exit)
    }

    /// --log json: a batch is one access log line, with its entry count (its entries have no lines of their own).
    func testTheAccessLogWritesOneLineForABatchWithItsEntryCount() throws {
        let out = Pipe()
        let server = try Running(["--log", "json"], stdout: out)
        let batch = #"{"requests":[{"path":"/v1/sections/toggle","body":{"sections":[{"id":"a"}],"toggle":"a"}},"#
            + #"{"path":"/v1/flow/layout","body":{"containerWidth":-1,"items":[]}}]}"#
        XCTAssertEqual(status(server.port, "POST", "/v1/batch", body: batch), 200)
        XCTAssertEqual(server.terminate(), 0)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains(#""path":"/v1/batch","status":200"#) == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains(#""entries":2}"#) == true, "\(lines)")
    }

    /// One request on a new connection with Connection: close; the status, or nil when refused or unanswered.
    func status(_ port: Int, _ method: String, _ path: String, body: String = "") -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array(("\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var reply = [UInt8](repeating: 0, count: 4096)
        let n = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 12 else { return nil }
        return Int(String(decoding: reply[9..<12], as: UTF8.self))
    }

    /// --shutdown-delay: after SIGTERM /readyz answers 503 at once while new connections are still
    /// accepted and served for the delay; then the process drains and exits 0.
    func testShutdownDelayKeepsServingWithReadyz503ThenExits0() throws {
        let server = try Running(["--shutdown-delay", "2"])
        XCTAssertEqual(status(server.port, "GET", "/readyz"), 200)
        let signalled = Date()
        kill(server.process.processIdentifier, SIGTERM)
        usleep(300_000)
        XCTAssertEqual(status(server.port, "GET", "/readyz"), 503)
        XCTAssertEqual(status(server.port, "GET", "/healthz"), 200)
        XCTAssertEqual(status(server.port, "POST", "/v1/sections/toggle", body: #"{"sections":[{"id":"a"}],"toggle":"a"}"#), 200)
        usleep(1_000_000)
        XCTAssertTrue(server.process.isRunning, "exited before its shutdown delay")
        XCTAssertEqual(status(server.port, "GET", "/healthz"), 200)
        server.process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(signalled)
        XCTAssertEqual(server.process.terminationStatus, 0)
        XCTAssertEqual(server.process.terminationReason, .exit)
        XCTAssertGreaterThanOrEqual(elapsed, 1.9)
        XCTAssertLessThan(elapsed, 5)
        XCTAssertNil(status(server.port, "GET", "/healthz"), "still accepting after the drain")
    }

    /// The delay comes from TRELLIS_SHUTDOWN_DELAY too, and a second signal cuts it short.
    func testSecondSignalEndsTheShutdownDelay() throws {
        let server = try Running([], environment: ["TRELLIS_SHUTDOWN_DELAY": "30"])
        let signalled = Date()
        kill(server.process.processIdentifier, SIGTERM)
        usleep(300_000)
        XCTAssertEqual(status(server.port, "GET", "/readyz"), 503)
        XCTAssertTrue(server.process.isRunning)
        kill(server.process.processIdentifier, SIGINT)
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 5)
    }
}

import Foundation
import HTTPServer
import TrellisHTTP
import TrellisAPI

/// A parsed HTTP/1.1 response.
struct TestResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object (Foundation is fine in tests).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any] ?? [:]
    }
}

/// Calls the service directly, without a socket: router-level tests.
func call(
    _ service: TrellisService, _ method: String, _ path: String, json: String? = nil,
    headers: [(String, String)] = []
) -> TestResponse {
    var fields = TrellisHeaders()
    if json != nil { fields.add("Content-Type", "application/json") }
    for (name, value) in headers { fields.add(name, value) }
    let bytes = Array((json ?? "").utf8)
    let response = bytes.withUnsafeBytes { body in
        service.handle(TrellisRequest(method: method, path: path, headers: fields, body: body))
    }
    return TestResponse(
        status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) }, body: response.body.bytes)
}

/// The real server on an ephemeral loopback port.
final class LiveServer {
    let service: TrellisService
    let server: HTTPServer
    let port: Int

    init(
        http: HTTPServerConfiguration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2),
        service configuration: ServiceConfiguration = ServiceConfiguration(),
        endpoints: [JSONEndpoint] = Features.endpoints
    ) throws {
        var http = http
        http.host = "127.0.0.1"
        http.port = 0
        service = TrellisService(configuration: configuration, endpoints: endpoints)
        server = HTTPServer(configuration: http, memoryBudget: configuration.memoryBudget, handler: service.handle)
        // As the executable does: malloc keeps large blocks for the next requests.
        HTTPServer.tuneProcessMemory()
        port = try server.start()
        // Weakly: the server holds the service's handler, the service its metrics.
        service.metrics.observeBodyGate { [weak server] in server?.bodyGateFigures ?? HTTPBodyGateFigures() }
    }

    deinit { server.stop() }

    func connect() throws -> TestConnection { try TestConnection(port: port) }

    /// One request on a fresh connection.
    func request(_ method: String, _ path: String, json: String? = nil, headers: [(String, String)] = []) throws -> TestResponse {
        let connection = try connect()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try connection.send(Array(head.utf8) + body)
        return try connection.readResponse(method: method)
    }
}

/// A raw TCP connection for tests that need control over every byte.
final class TestConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(port: Int, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends everything; returns false when the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) throws -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) throws -> Bool { try send(Array(text.utf8)) }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw Failure(description: "recv failed: errno \(errno)") }
        if n == 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// Reads one response (Content-Length or chunked or until close).
    func readResponse(method: String = "GET") throws -> TestResponse {
        var headEnd: Int?
        while headEnd == nil {
            if let range = findCRLFCRLF() { headEnd = range; break }
            guard try fill() else { throw Failure(description: "closed before a response head") }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = TestResponse(status: status, headers: headers, body: [])
        var body: [UInt8] = []
        if method == "HEAD" || status == 204 || status == 304 {
            return response
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "closed inside a body") }
            }
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while try fill() {}
            body = buffer
            buffer = []
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// True when the server closed the connection (reads EOF within the timeout).
    func isClosedByPeer() -> Bool {
        (try? fill()) == false
    }

    private func findCRLFCRLF() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

import Foundation

/// A raw TCP connection for tests that need control over every byte.
public final class TestConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public init(port: Int, timeoutSeconds: Int = 10) throws {
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
    public func send(_ bytes: [UInt8]) throws -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) throws -> Bool { try send(Array(text.utf8)) }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var n = -1
        // A signal (a child process of the server in this process ending: SIGCHLD) interrupts a read: read again.
        repeat { n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } } while n < 0 && errno == EINTR
        if n < 0 { throw Failure(description: "recv failed: errno \(errno)") }
        if n == 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// Reads one response (Content-Length or chunked or until close).
    public func readResponse(method: String = "GET") throws -> TestResponse {
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
    public func isClosedByPeer() -> Bool {
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

import Glibc

/// A minimal blocking HTTP/1.1 GET, for health checks where no curl exists (the runtime image).
public enum HTTPProbe {
    /// The status code of `GET path`, or nil when nothing answered within `timeoutSeconds`.
    public static func status(host: String, port: Int, path: String, timeoutSeconds: Int = 2) -> Int? {
        let target = host == "0.0.0.0" || host == "::" || host.isEmpty ? "127.0.0.1" : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target, String(port), &hints, &results) == 0, let first = results else { return nil }
        defer { freeaddrinfo(results) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(target)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return nil
        }
        var reply = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 12 {
            let n = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            guard n > 0 else { break }
            received += n
        }
        // "HTTP/1.1 200 ..."
        guard received >= 12 else { return nil }
        return Int(String(decoding: reply[9..<12], as: UTF8.self))
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case addressInUse(host: String, port: Int)
    case cannotListen(host: String, port: Int, errno: Int32)
    case cannotStart(errno: Int32)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            return "port \(port) on \(host) is already in use"
        case .cannotListen(let host, let port, let code):
            return "cannot listen on \(host):\(port) (errno \(code))"
        case .cannotStart(let code):
            return "cannot start the HTTP daemon (errno \(code))"
        }
    }
}

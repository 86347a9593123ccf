import Foundation
import TrellisAPI
import TrellisClient
import TrellisHTTP
import TrellisServer
import TrellisText

/// The real server on an ephemeral loopback port.
public final class LiveServer {
    public let service: TrellisService
    public let server: HTTPServer
    public let port: Int

    public init(
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

    /// A Swift client of this server with a short timeout, so that a hang fails the test instead of stalling it.
    public func client(requestID: String? = nil) -> TrellisClient {
        TrellisClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: 10, requestID: requestID)
    }

    public func connect() throws -> TestConnection { try TestConnection(port: port) }

    /// One request on a fresh connection.
    public func request(_ method: String, _ path: String, json: String? = nil, headers: [(String, String)] = []) throws -> TestResponse {
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

import Foundation
import HTTPServer
import TrellisHTTP
import TrellisAPI
import TrellisClient
import TrellisText

/// The real server on an ephemeral loopback port, stopped when released.
final class LiveServer {
    let server: HTTPServer
    let port: Int

    init() throws {
        // With the default fonts, so that text can be measured.
        let configuration = ServiceConfiguration(context: FeatureContext(fonts: LiveServer.fonts))
        let service = TrellisService(configuration: configuration, endpoints: Features.endpoints)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2),
            memoryBudget: configuration.memoryBudget, handler: service.handle)
        port = try server.start()
    }

    deinit { server.stop() }

    static let fonts = FontCollection(faces: FontFiles.load(FontFiles.defaultFiles()).faces)

    /// A client of this server with a short timeout, so that a hang fails the test instead of stalling it.
    func client(requestID: String? = nil) -> TrellisClient {
        TrellisClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: 10, requestID: requestID)
    }
}

import TrellisJSON
import Glibc
import HTTPTypes
import Synchronization

/// The service: the router (operations and the feature registry) inside the middleware every
/// answer passes through (metrics and access log, CORS, request ids, draining).
public final class TrellisService: Sendable {
    public static let name = "trellis"
    public static let version = "0.1.0"

    public let configuration: ServiceConfiguration
    public let metrics: Metrics
    private let draining = DrainingFlag()
    private let chain: MiddlewareChain
    /// Route paths in the order metrics and the index list them.
    public let paths: [String]

    public init(configuration: ServiceConfiguration = ServiceConfiguration(), endpoints: [JSONEndpoint] = Features.endpoints) {
        self.configuration = configuration
        let fonts = configuration.fonts
        let endpoints = endpoints.map { $0.bound(to: fonts) }
        let paths = ["/", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/playground", "/clients/trellis.mjs", FontsListing.path]
            + endpoints.map(\.path) + [BatchEndpoint.path]
        self.paths = paths
        let metrics = Metrics(routes: paths, memoryBudget: configuration.memoryBudget)
        self.metrics = metrics
        let draining = self.draining
        let index = Operations.index(endpoints: endpoints.map(\.path) + [BatchEndpoint.path])
        let gets: [(String, @Sendable () -> HTTPResponse)] = [
            ("/", { Operations.json(index) }),
            ("/healthz", { Operations.json(Operations.healthy) }),
            ("/readyz", { Operations.readiness(draining: draining.isSet, fontsLoaded: fonts.isLoaded) }),
            ("/metrics", { Operations.text(metrics.exposition(), type: "text/plain; version=0.0.4; charset=utf-8") }),
            ("/openapi.yaml", { Operations.text(Operations.openAPI, type: "application/yaml") }),
            ("/playground", { Operations.playgroundPage() }),
            ("/clients/trellis.mjs", { Operations.javaScriptClient() }),
            (FontsListing.path, { FontsListing.response(fonts) }),
        ]
        let router = Router(configuration: configuration, paths: paths, gets: gets, endpoints: endpoints)
        chain = MiddlewareChain(
            [
                ObservabilityMiddleware(metrics: metrics, log: configuration.log),
                CORSMiddleware(policy: configuration.cors),
                RequestIDMiddleware(ids: RequestID()),
                DrainingMiddleware(draining: draining),
            ],
            around: router)
    }

    /// Makes /readyz answer 503 from now on (the process is shutting down).
    public func beginDraining() {
        draining.set()
    }

    public var isDraining: Bool { draining.isSet }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var context = RequestContext()
        return chain.respond(request, &context)
    }
}

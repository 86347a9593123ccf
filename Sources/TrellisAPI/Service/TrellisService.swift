import TrellisJSON
import Glibc
import TrellisHTTP
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
    private let exposition: @Sendable () -> TrellisResponse

    public init(configuration: ServiceConfiguration = ServiceConfiguration(), endpoints: [JSONEndpoint] = Features.endpoints) {
        self.configuration = configuration
        let context = configuration.context
        let paths = ["/", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/playground", "/clients/trellis.mjs", FontsListing.path,
            FontStoreEndpoint.itemPath] + endpoints.map(\.path) + [BatchEndpoint.path]
        self.paths = paths
        let metrics = Metrics(routes: paths, memoryBudget: configuration.memoryBudget, context: context)
        self.metrics = metrics
        let draining = self.draining
        let index = Operations.indexAnswer(
            endpoints: endpoints.map(\.path) + [BatchEndpoint.path], metrics: configuration.metricsOnAPIPort)
        let exposition: @Sendable () -> TrellisResponse = {
            Operations.text(metrics.exposition(), type: "text/plain; version=0.0.4; charset=utf-8")
        }
        self.exposition = exposition
        var gets: [(String, @Sendable () -> TrellisResponse)] = [
            ("/", { index.response }),
            ("/healthz", { Operations.json(Operations.healthy) }),
            ("/readyz", { Operations.readiness(draining: draining.isSet) }),
            ("/openapi.yaml", { Operations.openAPI.response }),
            ("/playground", { Operations.playgroundAnswer.response }),
            ("/clients/trellis.mjs", { Operations.javaScriptAnswer.response }),
            (FontsListing.path, { context.fontsListing.response }),
        ]
        if configuration.metricsOnAPIPort { gets.append(("/metrics", exposition)) }
        let router = Router(configuration: configuration, paths: paths, gets: gets, endpoints: endpoints)
        chain = MiddlewareChain(
            [
                ObservabilityMiddleware(metrics: metrics, log: configuration.log),
                CORSMiddleware(policy: configuration.cors),
                RequestIDMiddleware(ids: RequestID()),
                DrainingMiddleware(draining: draining),
                ResponseHeadersMiddleware(),
            ],
            around: router)
    }

    /// Makes /readyz answer 503 from now on (the process is shutting down).
    public func beginDraining() {
        draining.set()
    }

    public var isDraining: Bool { draining.isSet }

    public func handle(_ request: TrellisRequest) -> TrellisResponse {
        var context = RequestContext()
        return chain.respond(request, &context)
    }

    /// The operations listener's handler (--ops-port, its own thread): GET /healthz, /readyz and
    /// /metrics, neither counted in the metrics nor logged. /healthz answers 503 while
    /// `longestBusyWorker` (the API server's heartbeat) is past `stuckAfter` (nil: never).
    public func operationsHandler(
        longestBusyWorker: @escaping @Sendable () -> Duration, stuckAfter: Duration?
    ) -> @Sendable (TrellisRequest) -> TrellisResponse {
        let draining = self.draining
        let paths = ["/healthz", "/readyz", "/metrics"]
        let gets: [(String, @Sendable () -> TrellisResponse)] = [
            ("/healthz", {
                let busy = longestBusyWorker()
                // Rule: unhealthy only when a worker has been on one request longer than any bounded request takes.
                if let stuckAfter, busy > stuckAfter {
                    return ProblemDetails(
                        status: 503,
                        detail: "A worker has been busy on one request for \(busy), longer than any request may take (\(stuckAfter))."
                    ).response()
                }
                return Operations.json(Operations.healthy)
            }),
            ("/readyz", { Operations.readiness(draining: draining.isSet) }),
            ("/metrics", exposition),
        ]
        let router = Router(configuration: configuration, paths: paths, gets: gets, endpoints: [])
        let chain = MiddlewareChain([DrainingMiddleware(draining: draining), ResponseHeadersMiddleware()], around: router)
        return { request in
            var context = RequestContext()
            return chain.respond(request, &context)
        }
    }
}

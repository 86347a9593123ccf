import TrellisHTTP
import TrellisCore
import TrellisJSON

/// Finds a request's route (the operations and the feature registry) and answers it: early
/// rejections and routing errors as problems, GETs from the operations, POSTs through the one
/// pipeline (`Router+Pipeline.swift`) within the answer's bound.
struct Router: Sendable {
    /// What a path answers. The payloads are positions in the router's lists, so that a route is a plain value,
    /// copied for free on every request.
    enum Route: Sendable {
        /// An operation (GET, HEAD): its answer, made by `operations[k]`.
        case operation(Int)
        /// A feature endpoint (POST), `features[k]`: its body through the pipeline, one `compute`.
        case feature(Int)
        /// `POST /v1/batch`: its entries through the same pipeline, one `compute` each.
        case batch
        /// `/v1/fonts`: the listing of the installed faces (GET, HEAD: `operations[k]`) and uploads without an id (POST).
        case fonts(Int)
        /// `/v1/fonts/{id}`: a stored font (GET, HEAD: its metadata; PUT: uploads it).
        case font

        var allow: String {
            switch self {
            case .operation: "GET, HEAD, OPTIONS"
            case .feature, .batch: "POST, OPTIONS"
            case .fonts: "GET, HEAD, POST, OPTIONS"
            case .font: "GET, HEAD, PUT, OPTIONS"
            }
        }
    }

    /// A path's route and its number in the service's path list (the metrics').
    struct Routed: Sendable {
        let index: Int
        let route: Route
    }

    let configuration: ServiceConfiguration
    let routes: [String: Routed]
    /// The operations' answers (GET, HEAD).
    let operations: [@Sendable () -> TrellisResponse]
    /// The feature endpoints (POST), in the index's order.
    let features: [JSONEndpoint]
    /// The feature paths, in the index's order.
    let featurePaths: [String]
    /// The most working memory per body byte any feature reserves (a batch's, before its entries are known).
    let mostWorkingMemoryPerByte: Int

    /// `gets` are the operations (GET, HEAD); `endpoints` the features (POST), answered alone or in a
    /// batch at `BatchEndpoint.path`; `paths` lists them all in the order the metrics number them.
    init(
        configuration: ServiceConfiguration, paths: [String], gets: [(String, @Sendable () -> TrellisResponse)],
        endpoints: [JSONEndpoint]
    ) {
        self.configuration = configuration
        features = endpoints
        operations = gets.map(\.1)
        featurePaths = endpoints.map(\.path)
        mostWorkingMemoryPerByte = endpoints.map(\.workingMemoryPerByte).max() ?? 12
        var table: [String: Routed] = [:]
        for (k, endpoint) in endpoints.enumerated() {
            table[endpoint.path] = Routed(index: paths.firstIndex(of: endpoint.path) ?? 0, route: .feature(k))
        }
        if let index = paths.firstIndex(of: BatchEndpoint.path) {
            table[BatchEndpoint.path] = Routed(index: index, route: .batch)
        }
        for (k, (path, _)) in gets.enumerated() {
            table[path] = Routed(index: paths.firstIndex(of: path) ?? 0, route: path == FontStoreEndpoint.path ? .fonts(k) : .operation(k))
        }
        routes = table
        fontRoute = Routed(index: paths.firstIndex(of: FontStoreEndpoint.itemPath) ?? 0, route: .font)
    }

    /// Every `/v1/fonts/{id}`, counted under one route.
    let fontRoute: Routed

    func respond(to request: TrellisRequest, context: inout RequestContext) -> TrellisResponse {
        let found = routes[request.path] ?? (FontStoreEndpoint.id(in: request.path) != nil ? fontRoute : nil)
        context.route = found?.index
        if let rejection = request.rejection { return ProblemDetails(refusing: rejection).response() }
        do {
            return try answer(request, route: found?.route, &context)
        } catch {
            return error.response(limit: configuration.answerLimit(bodyBytes: request.body.count))
        }
    }

    private func answer(_ request: TrellisRequest, route: Route?, _ context: inout RequestContext) throws(ProblemDetails) -> TrellisResponse {
        // Rule: the asterisk form names the server itself, for OPTIONS only (RFC 9112 §3.2.4).
        if request.path == "*" {
            guard request.method == "OPTIONS" else {
                throw ProblemDetails(status: 400, detail: "The request target * is for OPTIONS only.")
            }
            return TrellisResponse(status: 204, headers: ["Allow": "GET, HEAD, POST, PUT, OPTIONS"])
        }
        guard let route else {
            throw ProblemDetails(status: 404, detail: "There is no endpoint at this path; GET / lists them.")
        }
        switch request.method {
        case "OPTIONS":
            return TrellisResponse(status: 204, headers: ["Allow": route.allow])
        case "GET", "HEAD":
            if case .operation(let k) = route { return Caching.conditional(operations[k](), for: request) }
            if case .fonts(let k) = route { return Caching.conditional(operations[k](), for: request) }
            if case .font = route, let id = FontStoreEndpoint.id(in: request.path) {
                return try FontStoreEndpoint.metadata(id, configuration)
            }
        case "PUT":
            if case .font = route, let id = FontStoreEndpoint.id(in: request.path) {
                return try FontStoreEndpoint.store(request, claimed: id, configuration, deadline: deadline(context))
            }
        case "POST":
            if case .feature(let k) = route { return try post(request, to: features[k], &context) }
            if case .batch = route { return try post(request, to: nil, &context) }
            if case .fonts = route { return try FontStoreEndpoint.store(request, claimed: nil, configuration, deadline: deadline(context)) }
        default:
            break
        }
        var problem = ProblemDetails(status: 405, detail: "This endpoint answers \(route.allow).")
        problem.extraHeaders = [("Allow", route.allow)]
        throw problem
    }

    /// When --request-timeout passes for this request (nil: never).
    func deadline(_ context: RequestContext) -> ContinuousClock.Instant? {
        configuration.requestTimeout.map { context.started.advanced(by: $0) }
    }
}

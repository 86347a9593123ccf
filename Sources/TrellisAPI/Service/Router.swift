import TrellisHTTP
import TrellisCore
import TrellisJSON

/// Finds a request's route (the operations and the feature registry) and answers it: early
/// rejections and routing errors as problems, GETs from the operations, POSTs through their
/// JSON endpoint (parse, read, respond) within the answer's bound.
struct Router: Sendable {
    struct Route: Sendable {
        let index: Int
        let read: (@Sendable () -> TrellisResponse)?
        let post: JSONEndpoint?
        var isBatch = false

        var allow: String { read != nil ? "GET, HEAD, OPTIONS" : "POST, OPTIONS" }
    }

    let configuration: ServiceConfiguration
    let routes: [String: Route]
    /// The feature paths (POST), in the index's order.
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
        featurePaths = endpoints.map(\.path)
        mostWorkingMemoryPerByte = endpoints.map(\.workingMemoryPerByte).max() ?? 12
        var table: [String: Route] = [:]
        for endpoint in endpoints {
            table[endpoint.path] = Route(index: paths.firstIndex(of: endpoint.path) ?? 0, read: nil, post: endpoint)
        }
        if let index = paths.firstIndex(of: BatchEndpoint.path) {
            table[BatchEndpoint.path] = Route(index: index, read: nil, post: nil, isBatch: true)
        }
        for (path, read) in gets {
            table[path] = Route(index: paths.firstIndex(of: path) ?? 0, read: read, post: nil)
        }
        routes = table
    }

    func respond(to request: TrellisRequest, context: inout RequestContext) -> TrellisResponse {
        let route = routes[request.path]
        context.route = route?.index
        if let rejection = request.rejection { return Self.problem(refusing: rejection).response() }
        do {
            return try answer(request, route: route, &context)
        } catch {
            return error.response(limit: configuration.answerLimit(bodyBytes: request.body.count))
        }
    }

    /// Rule: a request the transport refused before its body is answered with this problem (and the
    /// transport closes the connection); it still passes the middleware, so it is counted, logged and has an id.
    static func problem(refusing rejection: HTTPRejection) -> ProblemDetails {
        switch rejection {
        case .bodyTooLarge(let limit):
            return ProblemDetails(status: 413, detail: "The request body is larger than the limit of \(limit) bytes.")
        case .overloaded:
            return .unavailable("Too many open connections; retry shortly.")
        case .memoryExhausted:
            return .unavailable("The server is short of memory for this request's body; retry shortly.")
        case .bodyDelayed:
            return .unavailable("The server could not read this request's body in time (too many large bodies at once); retry shortly.")
        case .unsupportedTransferEncoding:
            return ProblemDetails(
                status: 400,
                detail: "Transfer-Encoding other than chunked is not supported; send the body with Content-Length or chunked.")
        case .ambiguousLength:
            return ProblemDetails(
                status: 400,
                detail: "The body's length is ambiguous: send one Content-Length or Transfer-Encoding: chunked, not both.")
        case .malformedHead:
            return ProblemDetails(
                status: 400,
                detail: "The request head is malformed: header names must be tokens with the colon right after them, "
                    + "values must not contain control characters other than tab, and lines must not be folded.")
        case .nulInTarget:
            return ProblemDetails(status: 400, detail: "The request target contains a NUL byte (raw or %00 in the path).")
        case .badHost:
            return ProblemDetails(
                status: 400,
                detail: "Send exactly one Host header (HTTP/1.1 requires it) whose value is host or host:port, "
                    + "without userinfo or whitespace.")
        case .badTarget:
            return ProblemDetails(
                status: 400,
                detail: "The request target must be a path (/v1/...), an absolute URI with a valid host "
                    + "(http://host/v1/...), or * for OPTIONS, with no whitespace or control characters.")
        }
    }

    private func answer(_ request: TrellisRequest, route: Route?, _ context: inout RequestContext) throws(ProblemDetails) -> TrellisResponse {
        // Rule: the asterisk form names the server itself, for OPTIONS only (RFC 9112 §3.2.4).
        if request.path == "*" {
            guard request.method == "OPTIONS" else {
                throw ProblemDetails(status: 400, detail: "The request target * is for OPTIONS only.")
            }
            return TrellisResponse(status: 204, headers: ["Allow": "GET, HEAD, POST, OPTIONS"])
        }
        guard let route else {
            throw ProblemDetails(status: 404, detail: "There is no endpoint at this path; GET / lists them.")
        }
        switch request.method {
        case "OPTIONS":
            return TrellisResponse(status: 204, headers: ["Allow": route.allow])
        case "GET", "HEAD":
            if let read = route.read { return Caching.conditional(read(), for: request) }
        case "POST":
            if let post = route.post { return try answer(request, post, &context) }
            if route.isBatch { return try answerBatch(request, &context) }
        default:
            break
        }
        var problem = ProblemDetails(status: 405, detail: "This endpoint answers \(route.allow).")
        problem.extraHeaders = [("Allow", route.allow)]
        throw problem
    }

    private func answer(
        _ request: TrellisRequest, _ endpoint: JSONEndpoint, _ context: inout RequestContext
    ) throws(ProblemDetails) -> TrellisResponse {
        try requireJSON(request)
        // Rule: what computing the answer may take is reserved before anything is parsed.
        let working = try reserveWorkingMemory(request.body.count, perByte: endpoint.workingMemoryPerByte)
        defer { configuration.memoryBudget?.release(working) }
        // After a large body, parsed or not, this thread's parser gives its memory back.
        defer { if request.body.count > 1 << 20 { JSONDocument.trimParser(keepingBytes: 1 << 20) } }
        let document = try parse(request, depthAdvice: endpoint.depthAdvice)
        let limit = configuration.answerLimit(bodyBytes: request.body.count)
        var json = JSONWriter(capacity: 1024, limit: limit, budget: configuration.memoryBudget)
        var meter = meter(inputBytes: request.body.count, context)
        defer { context.steps = meter.steps }
        try compute(endpoint, document.root, limit: limit, &json, &meter)
        return TrellisResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: json.body(budget: configuration.memoryBudget))
    }

    func requireJSON(_ request: TrellisRequest) throws(ProblemDetails) {
        guard request.headers.withValue("Content-Type", { MediaType.isJSON(bytes: $0) }) else {
            throw ProblemDetails(
                status: 415,
                detail: "Send the body as JSON with the header Content-Type: application/json (curl --json does).")
        }
    }

    /// Takes `bytes` × `perByte` from the memory budget (the caller gives it back), or refuses with a 503.
    func reserveWorkingMemory(_ bytes: Int, perByte: Int) throws(ProblemDetails) -> Int {
        let (working, overflow) = bytes.multipliedReportingOverflow(by: perByte)
        if let budget = configuration.memoryBudget, overflow || !budget.reserve(working) {
            throw .unavailable("The server is short of memory for this request; retry shortly.")
        }
        return configuration.memoryBudget == nil ? 0 : working
    }

    func parse(_ request: TrellisRequest, depthAdvice: String?, keepingIndex: Bool = false) throws(ProblemDetails) -> JSONDocument {
        switch JSONDocument.parse(request.body, padded: request.bodyPadding >= JSONDocument.padding, keepingIndex: keepingIndex) {
        case .success(let parsed):
            return parsed
        case .failure(.tooDeep(let limit)):
            throw ProblemDetails(
                status: 400,
                detail: "The JSON nests deeper than \(limit) levels." + (depthAdvice.map { " " + $0 } ?? ""))
        case .failure(.tooLarge):
            throw ProblemDetails(status: 413, detail: "The JSON document is too large to parse.")
        case .failure(.invalid(let message)):
            throw ProblemDetails(status: 400, detail: "The body is not valid JSON: \(message)")
        }
    }

    /// Rule: the computation stops once --request-timeout has passed since the request arrived.
    func meter(inputBytes: Int, _ context: RequestContext) -> WorkMeter {
        configuration.requestTimeout.map { timeout in
            let deadline = context.started.advanced(by: timeout)
            return WorkMeter(inputBytes: inputBytes) { ContinuousClock.now >= deadline }
        } ?? WorkMeter(inputBytes: inputBytes)
    }

    /// One endpoint's answer to `body`, written where `json` stands (within `limit` bytes from there), or the
    /// problem it is answered with instead: the endpoint's own, a 503 once the deadline passed, a 422 past `limit`.
    func compute(
        _ endpoint: JSONEndpoint, _ body: JSONValue, limit: Int, _ json: inout JSONWriter, _ meter: inout WorkMeter
    ) throws(ProblemDetails) {
        var problems = Problems(root: body)
        endpoint.handle(body, configuration.context, &problems, &json, &meter)
        if meter.isStopped {
            throw .unavailable(
                "The request needed more than the server's limit of \(configuration.requestTimeout ?? .zero) of computing; "
                    + "ask for less at a time.")
        }
        guard problems.isEmpty else { throw .validation(problems) }
        switch json.failure {
        case nil:
            return
        case .tooLarge:
            // Rule: an answer past its limit is refused with a problem that says how to ask for less.
            throw ProblemDetails(
                status: 422,
                detail: "The answer would be larger than \(limit) bytes (\(configuration.maxAnswerFactor) × the request body + 1 MiB)"
                    + (endpoint.sizeAdvice.map { "; " + $0 } ?? "."),
                errors: [Problem(pointer: "", detail: "asks for an answer larger than \(limit) bytes")])
        case .outOfMemory:
            throw .unavailable("The server is short of memory for this answer; retry shortly.")
        }
    }
}

import HTTPTypes
import TrellisCore
import TrellisJSON

/// Finds a request's route (the operations and the feature registry) and answers it: early
/// rejections and routing errors as problems, GETs from the operations, POSTs through their
/// JSON endpoint (parse, read, respond) within the answer's bound.
struct Router: Sendable {
    struct Route: Sendable {
        let index: Int
        let read: (@Sendable () -> HTTPResponse)?
        let post: JSONEndpoint?

        var allow: String { read != nil ? "GET, HEAD, OPTIONS" : "POST, OPTIONS" }
    }

    let configuration: ServiceConfiguration
    private let routes: [String: Route]

    /// `gets` are the operations (GET, HEAD); `endpoints` the features (POST); `paths` lists them
    /// all in the order the metrics number them.
    init(
        configuration: ServiceConfiguration, paths: [String], gets: [(String, @Sendable () -> HTTPResponse)],
        endpoints: [JSONEndpoint]
    ) {
        self.configuration = configuration
        var table: [String: Route] = [:]
        for endpoint in endpoints {
            table[endpoint.path] = Route(index: paths.firstIndex(of: endpoint.path) ?? 0, read: nil, post: endpoint)
        }
        for (path, read) in gets {
            table[path] = Route(index: paths.firstIndex(of: path) ?? 0, read: read, post: nil)
        }
        routes = table
    }

    func respond(to request: HTTPRequest, context: inout RequestContext) -> HTTPResponse {
        let route = routes[request.path]
        context.route = route?.index
        do {
            return try answer(request, route: route, &context)
        } catch {
            return error.response(limit: configuration.answerLimit(bodyBytes: request.body.count))
        }
    }

    private func answer(_ request: HTTPRequest, route: Route?, _ context: inout RequestContext) throws(ProblemDetails) -> HTTPResponse {
        switch request.rejection {
        case .bodyTooLarge(let limit):
            throw ProblemDetails(status: 413, detail: "The request body is larger than the limit of \(limit) bytes.")
        case .overloaded:
            throw .unavailable("Too many open connections; retry shortly.")
        case .memoryExhausted:
            throw .unavailable("The server is short of memory for this request's body; retry shortly.")
        case .unsupportedTransferEncoding:
            throw ProblemDetails(
                status: 400,
                detail: "Transfer-Encoding other than chunked is not supported; send the body with Content-Length or chunked.")
        case .ambiguousLength:
            throw ProblemDetails(
                status: 400,
                detail: "The body's length is ambiguous: send one Content-Length or Transfer-Encoding: chunked, not both.")
        case .malformedHead:
            throw ProblemDetails(
                status: 400,
                detail: "The request head is malformed: header names must be tokens with the colon right after them, "
                    + "values must not contain control characters other than tab, and lines must not be folded.")
        case .nulInTarget:
            throw ProblemDetails(status: 400, detail: "The request target contains a NUL byte (raw or %00 in the path).")
        case .badHost:
            throw ProblemDetails(
                status: 400,
                detail: "Send exactly one Host header (HTTP/1.1 requires it) whose value is host or host:port, "
                    + "without userinfo or whitespace.")
        case .badTarget:
            throw ProblemDetails(
                status: 400,
                detail: "The request target must be a path (/v1/...), an absolute URI with a valid host "
                    + "(http://host/v1/...), or * for OPTIONS, with no whitespace or control characters.")
        case nil:
            break
        }
        // Rule: the asterisk form names the server itself, for OPTIONS only (RFC 9112 §3.2.4).
        if request.path == "*" {
            guard request.method == "OPTIONS" else {
                throw ProblemDetails(status: 400, detail: "The request target * is for OPTIONS only.")
            }
            return HTTPResponse(status: 204, headers: ["Allow": "GET, HEAD, POST, OPTIONS"])
        }
        guard let route else {
            throw ProblemDetails(status: 404, detail: "There is no endpoint at this path; GET / lists them.")
        }
        switch request.method {
        case "OPTIONS":
            return HTTPResponse(status: 204, headers: ["Allow": route.allow])
        case "GET", "HEAD":
            if let read = route.read { return Caching.conditional(read(), for: request) }
        case "POST":
            if let post = route.post { return try answer(request, post, &context) }
        default:
            break
        }
        var problem = ProblemDetails(status: 405, detail: "This endpoint answers \(route.allow).")
        problem.extraHeaders = [("Allow", route.allow)]
        throw problem
    }

    private func answer(
        _ request: HTTPRequest, _ endpoint: JSONEndpoint, _ context: inout RequestContext
    ) throws(ProblemDetails) -> HTTPResponse {
        guard request.headers.withValue("Content-Type", { MediaType.isJSON(bytes: $0) }) else {
            throw ProblemDetails(
                status: 415,
                detail: "Send the body as JSON with the header Content-Type: application/json (curl --json does).")
        }
        // Rule "working memory": what computing the answer may take is reserved before anything is parsed.
        let (working, overflow) = request.body.count.multipliedReportingOverflow(by: endpoint.workingMemoryPerByte)
        if let budget = configuration.memoryBudget, overflow || !budget.reserve(working) {
            throw .unavailable("The server is short of memory for this request; retry shortly.")
        }
        defer { configuration.memoryBudget?.release(working) }
        // After a large body, parsed or not, this thread's parser gives its memory back.
        defer { if request.body.count > 1 << 20 { JSONDocument.trimParser(keepingBytes: 1 << 20) } }
        let document: JSONDocument
        switch JSONDocument.parse(request.body, padded: request.bodyPadding >= 64) {
        case .success(let parsed):
            document = parsed
        case .failure(.tooDeep(let limit)):
            throw ProblemDetails(
                status: 400,
                detail: "The JSON nests deeper than \(limit) levels." + (endpoint.depthAdvice.map { " " + $0 } ?? ""))
        case .failure(.tooLarge):
            throw ProblemDetails(status: 413, detail: "The JSON document is too large to parse.")
        case .failure(.invalid(let message)):
            throw ProblemDetails(status: 400, detail: "The body is not valid JSON: \(message)")
        }
        var problems = Problems()
        let limit = configuration.answerLimit(bodyBytes: request.body.count)
        var json = JSONWriter(capacity: 1024, limit: limit, budget: configuration.memoryBudget)
        // Rule "deadline": the computation stops once --request-timeout has passed since the request arrived.
        let bodyBytes = request.body.count
        var meter = configuration.requestTimeout.map { timeout in
            let deadline = context.started.advanced(by: timeout)
            return WorkMeter(inputBytes: bodyBytes) { ContinuousClock.now >= deadline }
        } ?? WorkMeter(inputBytes: bodyBytes)
        defer { context.steps = meter.steps }
        try endpoint.handle(document.root, &problems, &json, &meter)
        if meter.isStopped {
            throw .unavailable(
                "The request needed more than the server's limit of \(configuration.requestTimeout ?? .zero) of computing; "
                    + "ask for less at a time.")
        }
        guard problems.isEmpty else { throw .validation(problems) }
        switch json.failure {
        case nil:
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: json.body(budget: configuration.memoryBudget))
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

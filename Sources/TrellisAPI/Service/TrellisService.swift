import TrellisJSON
import Glibc
import HTTPTypes
import Synchronization

/// Routes requests to the operations and feature endpoints and applies the rules every
/// endpoint shares: status codes, problem+json, CORS, request ids, metrics and the access log.
public final class TrellisService: Sendable {
    public static let name = "trellis"
    public static let version = "0.1.0"

    public let configuration: ServiceConfiguration
    public let metrics: Metrics
    private let requestIDs = RequestID()
    private let draining = DrainingFlag()
    private let routes: [String: Route]
    /// Route paths in the order metrics and the index list them.
    public let paths: [String]

    struct Route: Sendable {
        let index: Int
        let read: (@Sendable () -> HTTPResponse)?
        let post: JSONEndpoint?

        var allow: String { read != nil ? "GET, HEAD, OPTIONS" : "POST, OPTIONS" }
    }

    public init(configuration: ServiceConfiguration = ServiceConfiguration(), endpoints: [JSONEndpoint] = Features.endpoints) {
        self.configuration = configuration
        let paths = ["/", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/playground"] + endpoints.map(\.path)
        self.paths = paths
        let metrics = Metrics(routes: paths, memoryBudget: configuration.memoryBudget)
        self.metrics = metrics
        let draining = self.draining
        var table: [String: Route] = [:]
        for endpoint in endpoints {
            table[endpoint.path] = Route(index: paths.firstIndex(of: endpoint.path) ?? 0, read: nil, post: endpoint)
        }
        let index = Operations.index(endpoints: endpoints.map(\.path))
        let gets: [(String, @Sendable () -> HTTPResponse)] = [
            ("/", { Operations.json(index) }),
            ("/healthz", { Operations.json(Operations.healthy) }),
            ("/readyz", { Operations.readiness(draining: draining.isSet) }),
            ("/metrics", { Operations.text(metrics.exposition(), type: "text/plain; version=0.0.4; charset=utf-8") }),
            ("/openapi.yaml", { Operations.text(Operations.openAPI, type: "application/yaml") }),
            ("/playground", { Operations.playgroundPage() }),
        ]
        for (path, read) in gets {
            table[path] = Route(index: paths.firstIndex(of: path) ?? 0, read: read, post: nil)
        }
        routes = table
    }

    /// Makes /readyz answer 503 from now on (the process is shutting down).
    public func beginDraining() {
        draining.set()
    }

    public var isDraining: Bool { draining.isSet }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = Self.monotonicMicros()
        metrics.inFlight.wrappingAdd(1, ordering: .relaxed)
        let requestId = requestIDs.id(for: request.headers["X-Request-Id"])
        let route = routes[request.path]
        let origin = request.headers["Origin"]
        let preflight = request.method == "OPTIONS" && origin != nil
            && request.headers["Access-Control-Request-Method"] != nil
        var response: HTTPResponse
        do {
            response = try answer(request, route: route, preflight: preflight)
        } catch {
            response = error.response(limit: configuration.answerLimit(bodyBytes: request.body.count))
        }
        response.headers.add("X-Request-Id", requestId)
        configuration.cors.decorate(&response.headers, origin: origin, preflight: preflight && response.status == 204)
        if isDraining { response.closeConnection = true }
        let micros = Self.monotonicMicros() - started
        metrics.record(
            route: route?.index ?? metrics.unmatchedRoute, method: request.method, status: response.status,
            micros: micros, bytesIn: request.body.count, bytesOut: response.body.count)
        metrics.inFlight.wrappingAdd(-1, ordering: .relaxed)
        configuration.log.write(
            requestId: requestId, method: request.method, path: request.path, status: response.status,
            micros: micros, bytesIn: request.body.count, bytesOut: response.body.count)
        return response
    }

    private func answer(_ request: HTTPRequest, route: Route?, preflight: Bool) throws(ProblemDetails) -> HTTPResponse {
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
        case nil:
            break
        }
        guard let route else {
            throw ProblemDetails(status: 404, detail: "There is no endpoint at this path; GET / lists them.")
        }
        switch request.method {
        case "OPTIONS":
            return HTTPResponse(status: 204, headers: ["Allow": route.allow])
        case "GET", "HEAD":
            if let read = route.read { return read() }
        case "POST":
            if let post = route.post { return try answer(request, post) }
        default:
            break
        }
        var problem = ProblemDetails(status: 405, detail: "This endpoint answers \(route.allow).")
        problem.extraHeaders = [("Allow", route.allow)]
        throw problem
    }

    private func answer(_ request: HTTPRequest, _ endpoint: JSONEndpoint) throws(ProblemDetails) -> HTTPResponse {
        guard Self.isJSON(request.headers["Content-Type"]) else {
            throw ProblemDetails(
                status: 415,
                detail: "Send the body as JSON with the header Content-Type: application/json (curl --json does).")
        }
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
        endpoint.handle(document.root, &problems, &json)
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

    /// application/json or any +json type, with or without parameters (RFC 6839), case-insensitive.
    static func isJSON(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            let mediaType = UnsafeBufferPointer(rebasing: bytes[..<end])
            return equalsIgnoringCase(mediaType, "application/json")
                || (hasPrefixIgnoringCase(mediaType, "application/") && hasSuffixIgnoringCase(mediaType, "+json"))
        }
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && hasPrefixIgnoringCase(bytes, text)
    }

    private static func hasPrefixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        for i in 0..<n where bytes[i] | 0x20 != text.utf8Start[i] | 0x20 { return false }
        return true
    }

    private static func hasSuffixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        return hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: bytes[(bytes.count - n)...]), text)
    }

    static func monotonicMicros() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000 + now.tv_nsec / 1000
    }
}

/// Set once when shutdown begins.
final class DrainingFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .relaxed) }

    var isSet: Bool { value.load(ordering: .relaxed) }
}

import TrellisHTTP

/// What the steps around the router learn about a request and hand to each other.
struct RequestContext {
    /// X-Request-Id: the client's or a new one.
    var requestID = ""
    /// The route's number in the service's path list (nil: no route).
    var route: Int?
    /// When the complete request reached the service (the request's deadline counts from here).
    var started = ContinuousClock.now
    /// The steps of computation the endpoint counted (the cost model's unit).
    var steps = 0
    /// What a batch reports of its entries (nil for every other route).
    var batch: BatchReport?
}

/// One step around the router: it sees the request on the way in and the answer on the way out.
protocol Middleware: Sendable {
    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse
}

/// The middleware in order, outermost first, around the router: one function per request.
struct MiddlewareChain: Sendable {
    typealias Responder = @Sendable (TrellisRequest, inout RequestContext) -> TrellisResponse
    let respond: Responder

    init(_ middleware: [any Middleware], around router: Router) {
        var responder: Responder = { request, context in router.respond(to: request, context: &context) }
        for step in middleware.reversed() {
            let next = responder
            responder = { request, context in step.respond(to: request, context: &context, next: next) }
        }
        respond = responder
    }
}

/// X-Request-Id on every answer: the client's own when it is a sane token, else a new one.
struct RequestIDMiddleware: Middleware {
    let ids: RequestID

    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse {
        context.requestID = ids.id(for: request.headers["X-Request-Id"])
        var response = next(request, &context)
        response.headers.add("X-Request-Id", context.requestID)
        return response
    }
}

/// CORS headers for allowed origins; a preflight is an OPTIONS with Origin and Access-Control-Request-Method.
struct CORSMiddleware: Middleware {
    let policy: CORSPolicy

    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse {
        let origin = request.headers["Origin"]
        let preflight = request.method == "OPTIONS" && origin != nil
            && request.headers["Access-Control-Request-Method"] != nil
        var response = next(request, &context)
        policy.decorate(&response.headers, origin: origin, preflight: preflight && response.status == 204)
        return response
    }
}

/// Rule: while the process drains, every answer closes its connection.
struct DrainingMiddleware: Middleware {
    let draining: DrainingFlag

    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse {
        var response = next(request, &context)
        if draining.isSet { response.closeConnection = true }
        return response
    }
}

/// The fields every answer carries: `X-Content-Type-Options: nosniff` (Fetch §3.5: no answer is sniffed
/// as another type), and `Cache-Control: no-store` unless the route set its own caching.
struct ResponseHeadersMiddleware: Middleware {
    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse {
        var response = next(request, &context)
        if response.headers["Cache-Control"] == nil { response.headers.add("Cache-Control", Caching.noStore) }
        response.headers.add("X-Content-Type-Options", "nosniff")
        return response
    }
}

/// Metrics (requests in flight, counts and durations by route) and the access log line.
struct ObservabilityMiddleware: Middleware {
    let metrics: Metrics
    let log: AccessLog

    func respond(
        to request: TrellisRequest, context: inout RequestContext,
        next: (TrellisRequest, inout RequestContext) -> TrellisResponse
    ) -> TrellisResponse {
        metrics.inFlight.wrappingAdd(1, ordering: .relaxed)
        let response = next(request, &context)
        let micros = Self.micros(since: context.started)
        metrics.record(
            route: context.route ?? metrics.unmatchedRoute, method: request.method, status: response.status,
            micros: micros, bytesIn: request.body.count, bytesOut: response.body.count, steps: context.steps)
        // A batch's entries count under their own routes too (their bytes are the batch's).
        for entry in context.batch?.entries ?? [] {
            metrics.record(
                route: entry.route, method: "POST", status: entry.status, micros: entry.micros, bytesIn: entry.bytesIn,
                bytesOut: entry.bytesOut, steps: entry.steps, countsBytes: false)
        }
        metrics.inFlight.wrappingAdd(-1, ordering: .relaxed)
        log.write(
            requestId: context.requestID, method: request.method, path: request.path, status: response.status,
            micros: micros, bytesIn: request.body.count, bytesOut: response.body.count, entries: context.batch?.entries.count)
        return response
    }

    /// Whole microseconds from `start` to now on the standard library's monotonic clock.
    static func micros(since start: ContinuousClock.Instant) -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Int(seconds) &* 1_000_000 &+ Int(attoseconds / 1_000_000_000_000)
    }
}

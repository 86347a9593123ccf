import TrellisHTTP
import TrellisCore
import TrellisJSON

/// The one pipeline every POST body goes through, a feature request alone or a batch of them: the media type
/// checked, the working memory reserved, the body parsed, one call context made; then each feature request
/// through `compute` (its endpoint reads it, calls its one compute and writes the answer or records refusals),
/// written in place into the call's one writer, whose buffer becomes the answer.
extension Router {
    /// A POST to `endpoint`, or to the batch (nil).
    func post(_ request: TrellisRequest, to endpoint: JSONEndpoint?, _ context: inout RequestContext) throws(ProblemDetails) -> TrellisResponse {
        if endpoint == nil { context.batch = BatchReport() }
        try requireJSON(request)
        let bodyBytes = request.body.count
        // Rule: what computing the answer may take is reserved before anything is parsed; a batch, whose entries
        // are not known yet, reserves the most any endpoint reserves per byte.
        var working = try reserveWorkingMemory(bodyBytes, perByte: endpoint?.workingMemoryPerByte ?? mostWorkingMemoryPerByte)
        defer { configuration.memoryBudget?.release(working) }
        // After a large body, parsed or not, this thread's parser gives its memory back.
        defer { if bodyBytes > 1 << 20 { JSONDocument.trimParser(keepingBytes: 1 << 20) } }
        // A batch keeps the structural index until each entry's bytes are known.
        let document = try parse(request, depthAdvice: endpoint?.depthAdvice, keepingIndex: endpoint == nil)
        let limit = configuration.answerLimit(bodyBytes: bodyBytes)
        var call = EndpointCall(
            context: configuration.context, json: JSONWriter(capacity: 1024, limit: limit, budget: configuration.memoryBudget),
            meter: meter(inputBytes: bodyBytes, context))
        if let endpoint {
            call.answerLimit = { [configuration] in configuration.answerLimit(bodyBytes: $0) }
            defer { context.steps = call.meter.steps }
            try compute(endpoint, document.root, limit: limit, &call)
        } else {
            var report = BatchReport()
            defer {
                context.steps = report.steps
                context.batch = report
            }
            var problems = Problems()
            guard let batch = BatchRequest.read(document, request.body, routes: feature(at:), paths: featurePaths, &problems)
            else { throw .validation(problems) }
            // Rule: once read, the batch keeps each entry's own working memory per byte for that entry's bytes.
            if let budget = configuration.memoryBudget {
                let kept = batch.workingMemory(elsewhere: mostWorkingMemoryPerByte)
                if kept < working {
                    budget.release(working - kept)
                    working = kept
                }
            }
            try BatchEndpoint.respond(to: batch, &call, &report, through: self)
        }
        return TrellisResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: call.json.body(budget: configuration.memoryBudget))
    }

    /// The feature endpoint at `path` and its route number, for a batch's entries.
    func feature(at path: String) -> (JSONEndpoint, Int)? {
        guard let found = routes[path], case .feature(let k) = found.route else { return nil }
        return (features[k], found.index)
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

    func parse(_ request: TrellisRequest, depthAdvice: String?, keepingIndex: Bool) throws(ProblemDetails) -> JSONDocument {
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

    /// Rule: the computation stops once --request-timeout has passed since the request arrived (a batch's entries:
    /// one check for them all).
    func meter(inputBytes: Int, _ context: RequestContext) -> WorkMeter {
        configuration.requestTimeout.map { timeout in
            let deadline = context.started.advanced(by: timeout)
            return WorkMeter(inputBytes: inputBytes) { ContinuousClock.now >= deadline }
        } ?? WorkMeter(inputBytes: inputBytes)
    }

    /// One feature request's answer to `body`, written where the call's writer stands (within `limit` bytes from
    /// there), or the problem it is answered with instead: a 503 once the deadline passed, a 422 listing the body's
    /// problems (the reader's and the refusals its endpoint recorded), a 422 past `limit`.
    func compute(_ endpoint: JSONEndpoint, _ body: JSONValue, limit: Int, _ call: inout EndpointCall) throws(ProblemDetails) {
        call.problems = Problems(root: body)
        endpoint.handle(body, &call)
        if call.meter.isStopped {
            throw .unavailable(
                "The request needed more than the server's limit of \(configuration.requestTimeout ?? .zero) of computing; "
                    + "ask for less at a time.")
        }
        guard call.problems.isEmpty else { throw .validation(call.problems) }
        switch call.json.failure {
        case nil:
            return
        case .tooLarge:
            // (An endpoint may have bounded its answer as another body's: the limit it passed is the writer's.)
            throw answerTooLarge(call.answerLimit == nil ? limit : call.json.limit, advice: endpoint.sizeAdvice)
        case .outOfMemory:
            throw .unavailable("The server is short of memory for this answer; retry shortly.")
        }
    }

    /// Rule: an answer past its limit is refused with a problem that says how to ask for less (a batch's names the
    /// entry that passed it).
    func answerTooLarge(_ limit: Int, advice: String?, at pointer: String = "") -> ProblemDetails {
        ProblemDetails(
            status: 422,
            detail: "The answer would be larger than \(limit) bytes (\(configuration.maxAnswerFactor) × the request body + 1 MiB)"
                + (advice.map { "; " + $0 } ?? "."),
            errors: [Problem(pointer: pointer, detail: "asks for an answer larger than \(limit) bytes")])
    }
}

import TrellisHTTP
import TrellisCore
import TrellisJSON

/// `POST /v1/batch`: several feature requests in one body, answered in order, each exactly as its endpoint
/// answers that body alone, written in place into the batch's one answer.
enum BatchEndpoint {
    static let path = "/v1/batch"
    static let sizeAdvice = "send fewer or smaller requests in one batch."
}

/// What the metrics learn about one entry of a batch (counted under the entry's own route).
struct BatchEntryRecord {
    let route: Int
    let status: Int
    let micros: Int
    let bytesIn: Int
    let bytesOut: Int
    let steps: Int
}

extension Router {
    func answerBatch(_ request: TrellisRequest, _ context: inout RequestContext) throws(ProblemDetails) -> TrellisResponse {
        context.entries = []
        try requireJSON(request)
        let bodyBytes = request.body.count
        // Rule: before parsing the entries are unknown, so the batch reserves the most any
        // endpoint reserves per byte; once read, it keeps each entry's own figure for its bytes.
        var working = try reserveWorkingMemory(bodyBytes, perByte: mostWorkingMemoryPerByte)
        defer { configuration.memoryBudget?.release(working) }
        defer { if bodyBytes > 1 << 20 { JSONDocument.trimParser(keepingBytes: 1 << 20) } }
        // Its structural index is kept until each entry's bytes are known.
        let document = try parse(request, depthAdvice: nil, keepingIndex: true)
        var problems = Problems()
        guard let batch = BatchRequest.read(
            document.root, routes: { path in routes[path].flatMap { route in route.post.map { ($0, route.index) } } },
            paths: featurePaths, &problems)
        else { throw .validation(problems) }
        // Each entry is limited and metered by the bytes its body was written with, as if sent alone.
        let entryBytes = document.byteCounts(of: batch.entries.map(\.body), in: request.body)
        if let budget = configuration.memoryBudget {
            var kept = (bodyBytes - entryBytes.reduce(0, +)) * mostWorkingMemoryPerByte
            for (entry, bytes) in zip(batch.entries, entryBytes) { kept += bytes * entry.endpoint.workingMemoryPerByte }
            if kept < working {
                budget.release(working - kept)
                working = kept
            }
        }
        let limit = configuration.answerLimit(bodyBytes: bodyBytes)
        var json = JSONWriter(capacity: 1024, limit: limit, budget: configuration.memoryBudget)
        json.beginObject()
        json.key("responses")
        json.beginArray()
        var steps = 0
        defer { context.steps = steps }
        // Rule: an entry's bound is 16 × its body plus the 1 MiB any request may write; what the entries taken back
        // wrote past 16 × their bodies comes out of one allowance, the batch's own answer bound.
        var takenBackLeft = limit
        // Rule: one check for the whole batch, from when it arrived.
        let shouldStop = configuration.requestTimeout.map { timeout in
            let deadline = context.started.advanced(by: timeout)
            return { @Sendable in ContinuousClock.now >= deadline }
        }
        for (k, (entry, bytes)) in zip(batch.entries, entryBytes).enumerated() {
            let started = ContinuousClock.now
            let mark = json.mark
            json.beginObject()
            json.key("status"); json.int(200)
            json.key("body")
            var bodyStart = json.count
            // Rule: an entry may write what its answer alone could, and past 16 × its body only what the allowance has left.
            let entryLimit = configuration.answerLimit(bodyBytes: bytes)
            let proportional = entryLimit - ServiceConfiguration.answerAllowance
            let ownEnd = Self.sum(bodyStart, entryLimit)
            let allowanceEnd = Self.sum(Self.sum(bodyStart, proportional), takenBackLeft)
            json.bound(to: min(ownEnd, allowanceEnd))
            var meter = shouldStop.map { WorkMeter(inputBytes: bytes, stopWhen: $0) } ?? WorkMeter(inputBytes: bytes)
            var status = 200
            var entrySteps = 0
            do {
                try compute(entry.endpoint, entry.body, limit: entryLimit, &json, &meter)
                json.bound(to: nil)
            } catch {
                json.bound(to: nil)
                entrySteps = meter.steps
                // The deadline and the memory budget cover the whole batch.
                if meter.isStopped || json.failure == .outOfMemory {
                    steps += entrySteps
                    throw error
                }
                if json.failure == .tooLarge {
                    // Which end it reached (at a tie the batch's bound before its own, its own before the allowance's).
                    let batchEnd = json.limit <= min(ownEnd, allowanceEnd)
                    if batchEnd || allowanceEnd < ownEnd {
                        steps += entrySteps
                        throw batchEnd ? tooLarge(limit, at: k) : takenBackPastAllowance(limit, at: k)
                    }
                }
                takenBackLeft -= max(0, json.count - bodyStart - proportional)
                json.rewind(to: mark)
                json.beginObject()
                json.key("status"); json.int(error.status)
                json.key("body")
                bodyStart = json.count
                error.write(to: &json, limit: entryLimit)
                status = error.status
            }
            if status == 200 { entrySteps = meter.steps }
            json.endObject()
            steps += entrySteps
            if json.failure == .tooLarge { throw tooLarge(limit, at: k) }
            context.entries?.append(BatchEntryRecord(
                route: entry.route, status: status, micros: ObservabilityMiddleware.micros(since: started), bytesIn: bytes,
                bytesOut: json.count - 1 - bodyStart, steps: entrySteps))
        }
        json.endArray()
        json.endObject()
        switch json.failure {
        case nil:
            return TrellisResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: json.body(budget: configuration.memoryBudget))
        case .tooLarge:
            throw tooLarge(limit, at: nil)
        case .outOfMemory:
            throw .unavailable("The server is short of memory for this answer; retry shortly.")
        }
    }

    /// Rule: a batch whose entries taken back would write more past 16 × their bodies than its answer bound is refused
    /// whole, naming the entry that would pass it.
    private func takenBackPastAllowance(_ limit: Int, at entry: Int) -> ProblemDetails {
        let factor = configuration.maxAnswerFactor
        return ProblemDetails(
            status: 422,
            detail: "The entries answered with a problem would have written more than \(limit) bytes past \(factor) × their "
                + "bodies before being taken back (the batch's allowance: its answer bound, \(factor) × the request body + 1 MiB); "
                + "ask those entries for less (each one sent alone answers how).",
            errors: [Problem(pointer: "/requests/\(entry)", detail: "passes the allowance for entries taken back")])
    }

    /// `a + b`, or Int.max past it.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }

    /// Rule: a batch whose answer would pass its limit is refused whole, naming the entry that passed it.
    private func tooLarge(_ limit: Int, at entry: Int?) -> ProblemDetails {
        ProblemDetails(
            status: 422,
            detail: "The answer would be larger than \(limit) bytes (\(configuration.maxAnswerFactor) × the request body + 1 MiB); "
                + BatchEndpoint.sizeAdvice,
            errors: [Problem(pointer: entry.map { "/requests/\($0)" } ?? "", detail: "asks for an answer larger than \(limit) bytes")])
    }
}

import TrellisHTTP
import TrellisCore
import TrellisJSON

/// `POST /v1/batch`: several feature requests in one body, answered in order, each exactly as its endpoint
/// answers that body alone, written in place into the batch's one answer.
enum BatchEndpoint {
    static let path = "/v1/batch"
    static let sizeAdvice = "send fewer or smaller requests in one batch."

    /// Answers every entry of `batch` through the pipeline's `compute`, as if sent alone, into the call's one writer:
    /// `{"responses": [{"status", "body"}, ...]}`. An entry answered with a problem is taken back (`mark`/`rewind`)
    /// and its problem written instead; the deadline, the memory budget and the batch's answer bound cover the
    /// whole batch, which is then refused whole.
    static func respond(
        to batch: BatchRequest, _ call: inout EndpointCall, _ report: inout BatchReport, through pipeline: Router
    ) throws(ProblemDetails) {
        let limit = call.json.limit
        call.json.beginObject()
        call.json.key("responses")
        call.json.beginArray()
        // Rule: an entry's bound is 16 × its body plus the 1 MiB any request may write; what the entries taken back
        // wrote past 16 × their bodies comes out of one allowance, the batch's own answer bound.
        var takenBackLeft = limit
        // Rule: one deadline for the whole batch, from when it arrived.
        let batchMeter = call.meter
        for (k, entry) in batch.entries.enumerated() {
            let started = ContinuousClock.now
            let mark = call.json.mark
            call.json.beginObject()
            call.json.key("status"); call.json.int(200)
            call.json.key("body")
            var bodyStart = call.json.count
            // Rule: an entry may write what its answer alone could, and past 16 × its body only what the allowance has left.
            let entryLimit = pipeline.configuration.answerLimit(bodyBytes: entry.bytes)
            let proportional = entryLimit - ServiceConfiguration.answerAllowance
            let ownEnd = sum(bodyStart, entryLimit)
            let allowanceEnd = sum(sum(bodyStart, proportional), takenBackLeft)
            call.json.bound(to: min(ownEnd, allowanceEnd))
            call.meter = batchMeter.restarted(inputBytes: entry.bytes)
            var status = 200
            do {
                try pipeline.compute(entry.endpoint, entry.body, limit: entryLimit, &call)
                call.json.bound(to: nil)
            } catch {
                call.json.bound(to: nil)
                // The deadline and the memory budget cover the whole batch.
                if call.meter.isStopped || call.json.failure == .outOfMemory {
                    report.steps += call.meter.steps
                    throw error
                }
                if call.json.failure == .tooLarge {
                    // Which end it reached (at a tie the batch's bound before its own, its own before the allowance's).
                    let batchEnd = call.json.limit <= min(ownEnd, allowanceEnd)
                    if batchEnd || allowanceEnd < ownEnd {
                        report.steps += call.meter.steps
                        throw batchEnd ? tooLarge(limit, at: k, pipeline) : takenBackPastAllowance(limit, at: k, pipeline)
                    }
                }
                takenBackLeft -= max(0, call.json.count - bodyStart - proportional)
                call.json.rewind(to: mark)
                call.json.beginObject()
                call.json.key("status"); call.json.int(error.status)
                call.json.key("body")
                bodyStart = call.json.count
                error.write(to: &call.json, limit: entryLimit)
                status = error.status
            }
            call.json.endObject()
            report.steps += call.meter.steps
            if call.json.failure == .tooLarge { throw tooLarge(limit, at: k, pipeline) }
            report.entries.append(BatchEntryRecord(
                route: entry.route, status: status, micros: ObservabilityMiddleware.micros(since: started), bytesIn: entry.bytes,
                bytesOut: call.json.count - 1 - bodyStart, steps: call.meter.steps))
        }
        call.json.endArray()
        call.json.endObject()
        switch call.json.failure {
        case nil:
            return
        case .tooLarge:
            throw tooLarge(limit, at: nil, pipeline)
        case .outOfMemory:
            throw .unavailable("The server is short of memory for this answer; retry shortly.")
        }
    }

    /// Rule: a batch whose entries taken back would write more past 16 × their bodies than its answer bound is refused
    /// whole, naming the entry that would pass it.
    private static func takenBackPastAllowance(_ limit: Int, at entry: Int, _ pipeline: Router) -> ProblemDetails {
        let factor = pipeline.configuration.maxAnswerFactor
        return ProblemDetails(
            status: 422,
            detail: "The entries answered with a problem would have written more than \(limit) bytes past \(factor) × their "
                + "bodies before being taken back (the batch's allowance: its answer bound, \(factor) × the request body + 1 MiB); "
                + "ask those entries for less (each one sent alone answers how).",
            errors: [Problem(pointer: "/requests/\(entry)", detail: "passes the allowance for entries taken back")])
    }

    /// Rule: a batch whose answer would pass its limit is refused whole, naming the entry that passed it.
    private static func tooLarge(_ limit: Int, at entry: Int?, _ pipeline: Router) -> ProblemDetails {
        pipeline.answerTooLarge(limit, advice: sizeAdvice, at: entry.map { "/requests/\($0)" } ?? "")
    }

    /// `a + b`, or Int.max past it.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}

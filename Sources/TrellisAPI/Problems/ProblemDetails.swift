import TrellisJSON
import TrellisHTTP

/// An error response that renders itself as RFC 9457 `application/problem+json`.
public struct ProblemDetails: Error, Equatable, Sendable {
    /// RFC 9457 §3.1.1: about:blank, or a type the documentation names (`ProblemTypes`).
    public var type = "about:blank"
    public var status: Int
    public var title: String
    public var detail: String
    /// One entry per problem found (422 only).
    public var errors: [Problem]?
    /// Problems found in all, listed or not (422 only).
    public var problemCount = 0
    public var extraHeaders: [(String, String)] = []

    public init(status: Int, detail: String, errors: [Problem]? = nil) {
        self.status = status
        self.title = TrellisStatus.reason(status)
        self.detail = detail
        self.errors = errors
    }

    public static func == (a: ProblemDetails, b: ProblemDetails) -> Bool {
        a.type == b.type && a.status == b.status && a.detail == b.detail && a.errors == b.errors
    }

    /// 503 with Retry-After: the server can't take this request now (connections or memory).
    public static func unavailable(_ detail: String) -> ProblemDetails {
        var problem = ProblemDetails(status: 503, detail: detail)
        problem.extraHeaders = [("Retry-After", "1")]
        return problem
    }

    public static func validation(_ problems: Problems) -> ProblemDetails {
        let n = problems.count
        let detail = n == 1
            ? "The request body has 1 problem; see errors."
            : "The request body has \(n) problems; see errors" + (n > Problems.limit ? " (the first \(Problems.limit) are listed)." : ".")
        var details = ProblemDetails(status: 422, detail: detail, errors: problems.list)
        details.problemCount = n
        if let type = problems.type { details.type = type }
        return details
    }

    /// The answer, at most about `limit` bytes: errors that would pass it are left out (and the
    /// detail says how many are listed).
    public func response(limit: Int = 1 << 20) -> TrellisResponse {
        var json = JSONWriter(capacity: 256)
        write(to: &json, limit: limit)
        var headers: TrellisHeaders = ["Content-Type": "application/problem+json"]
        for (name, value) in extraHeaders { headers.add(name, value) }
        // Rule: a failed allocation still answers, with the status and no body.
        return TrellisResponse(status: status, headers: headers, body: json.body(budget: nil))
    }

    /// The problem+json document, written where `json` stands (an answer of its own, or a batch's entry),
    /// with the errors that fit `limit`.
    public func write(to json: inout JSONWriter, limit: Int = 1 << 20) {
        var errors = self.errors
        var detail = self.detail
        if let listed = errors {
            // An upper bound of each entry's escaped size (\u00XX is 6 bytes for 1).
            var room = limit - 512 - detail.utf8.count * 6
            let kept = listed.prefix { error in
                room -= 32 + (error.pointer.utf8.count + error.detail.utf8.count) * 6
                return room >= 0
            }
            if kept.count < listed.count {
                errors = Array(kept)
                detail = "The request body has \(max(problemCount, listed.count)) problems; see errors (the first \(kept.count) are listed)."
            }
        }
        json.beginObject()
        json.key("type"); json.string(type)
        json.key("title"); json.string(title)
        json.key("status"); json.int(status)
        json.key("detail"); json.string(detail)
        if let errors {
            json.key("errors")
            json.beginArray()
            for error in errors {
                json.beginObject()
                json.key("pointer"); json.string(error.pointer)
                json.key("detail"); json.string(error.detail)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }
}

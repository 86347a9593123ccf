import TrellisJSON

/// A typed refusal that knows its problem (RFC 9457): where it is blamed, and so how it is answered, and what it
/// says. Every refusal is rendered through this protocol, never by a switch of its caller's: the router answers a
/// request refused whole with `ProblemDetails(refusing:)`, an endpoint records a refusal of what the body asks with
/// `call.problems.add(refusal, at:)`.
protocol RendersProblem {
    /// Where the refusal is blamed; nil when it has no problem of its own to say (the request's deadline passed:
    /// the pipeline answers 503 from its meter).
    var blame: ProblemBlame? { get }
    /// What it says: the answer's detail, or the entry's in a 422's `errors`. Read only when it is written.
    var detail: String { get }
}

/// Where a refusal is blamed.
enum ProblemBlame: Equatable {
    /// The request as a whole: answered alone, with this status.
    case request(status: Int)
    /// A member of the body, by its JSON Pointer from the body's root: one of the body's problems.
    case member(String)
    /// The value the endpoint refuses with it (a text): one of the body's problems, at that value.
    case value
}

extension ProblemDetails {
    /// Rule: a refusal answered alone has its own status and detail, and a 503 says when to retry; a refusal of
    /// what the body asks is a 422 listing it (at its member, else at the body).
    init(refusing refusal: some RendersProblem) {
        switch refusal.blame {
        case .request(let status):
            self.init(status: status, detail: refusal.detail)
            if status == 503 { extraHeaders = [("Retry-After", "1")] }
        case .member(let pointer):
            self = .validation(one: Problem(pointer: pointer, detail: refusal.detail))
        case .value, nil:
            self = .validation(one: Problem(pointer: "", detail: refusal.detail))
        }
    }

    /// The 422 for a body with one problem.
    private static func validation(one problem: Problem) -> ProblemDetails {
        var details = ProblemDetails(status: 422, detail: "The request body has 1 problem; see errors.", errors: [problem])
        details.problemCount = 1
        return details
    }
}

extension Problems {
    /// Records a refusal of what the body asks as one of its problems (the answer is then a 422 listing them all):
    /// at the member it blames, else at `value` (the body, without one).
    mutating func add(_ refusal: some RendersProblem, at value: JSONValue? = nil) {
        switch refusal.blame {
        case nil:
            return
        case .member(let pointer):
            add(pointer: pointer, refusal.detail)
        case .value, .request:
            if let value { add(at: value, refusal.detail) } else { add(pointer: "", refusal.detail) }
        }
    }
}

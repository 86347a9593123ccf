import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An error answer's problem details (RFC 9457), with every problem the service found in the request.
public struct TrellisProblem: Sendable, Equatable, Codable {
    /// One problem in the request body: an RFC 6901 JSON Pointer into the body and what is wrong there.
    public struct Pointer: Sendable, Equatable, Codable {
        public var pointer: String
        public var detail: String

        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    public var type: String
    public var title: String
    /// The HTTP status (422 for a request that breaks the schema).
    public var status: Int
    public var detail: String
    /// Every problem found, each with its pointer; empty except on a 422.
    public var errors: [Pointer]
    /// The answer's X-Request-Id, for matching the service's access log.
    public var requestID: String?

    public init(
        type: String = "about:blank", title: String, status: Int, detail: String, errors: [Pointer] = [],
        requestID: String? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.requestID = requestID
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
    }

    /// Rule: absent members of problem+json take RFC 9457's defaults (`about:blank`, no errors).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        status = try container.decode(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? ""
        errors = try container.decodeIfPresent([Pointer].self, forKey: .errors) ?? []
        requestID = nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        if !errors.isEmpty { try container.encode(errors, forKey: .errors) }
    }
}

/// Why a call failed: the service refused it, it never got an answer, or the answer was not what the API promises.
public enum TrellisClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service answered with an error status; its problem details (422: every pointer).
    case problem(TrellisProblem)
    /// No answer: the connection failed, the timeout passed or the task was cancelled.
    case transport(TrellisTransportFailure)
    /// A success status whose body does not decode as the endpoint's response type.
    case undecodableResponse(status: Int, requestID: String?, detail: String)
    /// The request could not be made: its body failed to encode or the URL is invalid.
    case invalidRequest(detail: String)

    /// The problem details when the service answered with an error status.
    public var problem: TrellisProblem? {
        if case .problem(let problem) = self { return problem }
        return nil
    }

    public var description: String {
        switch self {
        case .problem(let problem):
            let pointers = problem.errors.map { "\n  \($0.pointer): \($0.detail)" }.joined()
            return "\(problem.status) \(problem.title): \(problem.detail)\(pointers)"
        case .transport(let failure):
            return "transport: \(failure.detail)"
        case .undecodableResponse(let status, _, let detail):
            return "undecodable \(status) response: \(detail)"
        case .invalidRequest(let detail):
            return "invalid request: \(detail)"
        }
    }
}

/// A call that got no answer: URLError's code and its description.
public struct TrellisTransportFailure: Sendable, Equatable {
    /// The URLError code, or 0 when the failure was not a URLError.
    public var code: Int
    public var detail: String

    /// True when the request's timeout passed before an answer.
    public var isTimeout: Bool { code == URLError.Code.timedOut.rawValue }
    /// True when the task was cancelled.
    public var isCancelled: Bool { code == URLError.Code.cancelled.rawValue }

    public init(code: Int, detail: String) {
        self.code = code
        self.detail = detail
    }
}

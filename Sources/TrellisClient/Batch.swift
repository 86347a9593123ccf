import Foundation

extension TrellisClient {
    /// One request of a batch: any endpoint's request, its answer decoded as that endpoint's.
    public struct BatchEntry: Sendable, Encodable {
        /// The endpoint's path, e.g. `/v1/flow/layout`.
        public let path: String
        let body: any TrellisEndpointRequest
        let decodeAnswer: @Sendable (any Decoder) throws -> any Sendable

        public init<Request: TrellisEndpointRequest>(_ request: Request) {
            path = Request.path
            body = request
            decodeAnswer = { try Request.Response(from: $0) }
        }

        private enum CodingKeys: String, CodingKey { case path, body }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try body.encode(to: container.superEncoder(forKey: .body))
        }
    }

    /// One entry's answer, as its endpoint answers that body alone: the decoded answer (200) or its problem.
    public struct BatchAnswer: Sendable {
        public var status: Int
        /// The endpoint's answer (its `Response` type) or the entry's problem (pointers into its body).
        public var result: Result<any Sendable, TrellisClientError>

        /// The answer as `Response`; the entry's problem is thrown as `.problem`.
        public func get<Response: Sendable>(_ type: Response.Type = Response.self) throws(TrellisClientError) -> Response {
            switch result {
            case .failure(let error):
                throw error
            case .success(let value):
                guard let value = value as? Response else {
                    throw .undecodableResponse(status: status, requestID: nil, detail: "the entry's answer is a \(Swift.type(of: value))")
                }
                return value
            }
        }
    }

    /// The body of POST /v1/batch: 1 to 100 requests, answered in order in one round trip.
    public struct BatchRequest: TrellisEndpointRequest {
        public typealias Response = BatchResponse
        public static let path = "/v1/batch"

        public var requests: [BatchEntry]

        public init(_ requests: [BatchEntry]) {
            self.requests = requests
        }
    }

    /// The answer of POST /v1/batch: one answer per request, in order.
    public struct BatchResponse: Sendable, Decodable {
        public var responses: [BatchAnswer]

        static let entriesKey = CodingUserInfoKey(rawValue: "TrellisClient.BatchEntries")!

        private enum CodingKeys: String, CodingKey { case responses }
        private enum EntryKeys: String, CodingKey { case status, body }

        /// Rule: entry i's body is decoded as the answer of request i's endpoint (the entries ride in userInfo).
        public init(from decoder: any Decoder) throws {
            let entries = decoder.userInfo[Self.entriesKey] as? [BatchEntry] ?? []
            var list = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .responses)
            var responses: [BatchAnswer] = []
            while !list.isAtEnd {
                let entry = try list.nestedContainer(keyedBy: EntryKeys.self)
                let status = try entry.decode(Int.self, forKey: .status)
                if (200..<300).contains(status), responses.count < entries.count {
                    let value = try entries[responses.count].decodeAnswer(try entry.superDecoder(forKey: .body))
                    responses.append(BatchAnswer(status: status, result: .success(value)))
                } else {
                    let problem = try entry.decode(TrellisProblem.self, forKey: .body)
                    responses.append(BatchAnswer(status: status, result: .failure(.problem(problem))))
                }
            }
            self.responses = responses
        }
    }

    /// POST /v1/batch: several requests in one round trip; each answer is what its endpoint answers alone
    /// (an entry's problem is its answer, not thrown; a malformed batch throws `.problem`).
    public func batch(_ requests: [BatchEntry], requestID: String? = nil) async throws(TrellisClientError) -> [BatchAnswer] {
        try await send(BatchRequest(requests), requestID: requestID).value.responses
    }
}

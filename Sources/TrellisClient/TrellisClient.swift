import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls the Trellis service: one `async` method per endpoint, each request and answer a Codable value.
///
/// Errors are `TrellisClientError`; an answer with an error status is `.problem`, with the problem
/// details and every `{pointer, detail}` of a 422. The client is a value and Sendable: share it freely.
public struct TrellisClient: Sendable {
    /// The service's root, e.g. `http://localhost:8080`; endpoint paths are appended to it.
    public var baseURL: URL
    /// Seconds a call may take from sending to the decoded answer; past it, `.transport` with `isTimeout`.
    public var timeout: TimeInterval
    /// Sent as X-Request-Id on every call that does not give its own.
    public var requestID: String?
    public var session: URLSession
    /// The font files given to `addFont`, shared by the client's copies: uploaded again whenever the service answers
    /// that a request names one it does not store.
    public let fontFiles: TrellisFontFiles

    public init(
        baseURL: URL, timeout: TimeInterval = 30, requestID: String? = nil, session: URLSession = .shared,
        fontFiles: TrellisFontFiles = TrellisFontFiles()
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.requestID = requestID
        self.session = session
        self.fontFiles = fontFiles
    }

    /// POST /v1/outline/expansion: the nodes to expand so that every selection is visible, and each selection's path.
    public func outlineExpansion(
        _ request: OutlineExpansionRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> OutlineExpansionResponse {
        try await send(request, requestID: requestID).value
    }

    /// POST /v1/outline/rows: the visible rows of an outline picker, windowed by offset and limit.
    public func outlineRows(
        _ request: OutlineRowsRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> OutlineRowsResponse {
        try await send(request, requestID: requestID).value
    }

    /// POST /v1/flow/layout: the positions of wrapping tags (chips) in a container.
    public func flowLayout(
        _ request: FlowLayoutRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> FlowLayoutResponse {
        try await send(request, requestID: requestID).value
    }

    /// POST /v1/sections/toggle: the sections' state after a toggle or actions, and how to draw each header.
    public func sectionsToggle(
        _ request: SectionsToggleRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> SectionsToggleResponse {
        try await send(request, requestID: requestID).value
    }

    /// POST /v1/drawer/state: a side drawer's next state, its frames, and its spring transition.
    public func drawerState(
        _ request: DrawerStateRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> DrawerStateResponse {
        try await send(request, requestID: requestID).value
    }

    /// Sends any endpoint's request and answers the decoded value with the answer's X-Request-Id. When the service
    /// answers that the request names a font it does not store, and this client was given that font's file
    /// (`addFont`), the file is uploaded and the request sent again (at most twice).
    public func send<Request: TrellisEndpointRequest>(
        _ request: Request, requestID: String? = nil
    ) async throws(TrellisClientError) -> TrellisReply<Request.Response> {
        let urlRequest = try makeURLRequest(request, requestID: requestID ?? self.requestID)
        var attempt = 0
        while true {
            let (data, http) = try await exchange(urlRequest)
            let answerID = http.value(forHTTPHeaderField: "X-Request-Id")
            // Rule: a status outside 2xx is an error; its body is problem+json, or (from the transport) anything else.
            guard (200..<300).contains(http.statusCode) else {
                let problem = Self.problem(status: http.statusCode, body: data, requestID: answerID)
                guard attempt < Self.fontRetries, let body = urlRequest.httpBody, let ids = fontsToUpload(problem, body: body) else {
                    throw .problem(problem)
                }
                for id in ids { _ = try await storeFont(id, requestID: requestID) }
                attempt += 1
                continue
            }
            let value: Request.Response
            do {
                let decoder = JSONDecoder()
                // A batch's entries decode by their own endpoints' answers.
                if let batch = request as? BatchRequest { decoder.userInfo[BatchResponse.entriesKey] = batch.requests }
                value = try decoder.decode(Request.Response.self, from: data)
            } catch {
                throw .undecodableResponse(status: http.statusCode, requestID: answerID, detail: String(describing: error))
            }
            // A batch answers 200 with each entry's own answer: entries whose fonts are not stored are sent again
            // once those fonts are uploaded.
            if attempt < Self.fontRetries, let batch = value as? BatchResponse, let body = urlRequest.httpBody,
                let ids = fontsToUpload(batch, body: body)
            {
                for id in ids { _ = try await storeFont(id, requestID: requestID) }
                attempt += 1
                continue
            }
            return TrellisReply(value: value, status: http.statusCode, requestID: answerID)
        }
    }

    /// One exchange: the answer's bytes and head, or the transport's failure.
    func exchange(_ urlRequest: URLRequest) async throws(TrellisClientError) -> (Data, HTTPURLResponse) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await Self.data(for: urlRequest, session: session, timeout: timeout)
        } catch let error as URLError {
            throw .transport(TrellisTransportFailure(code: error.code.rawValue, detail: error.localizedDescription))
        } catch is CancellationError {
            throw .transport(TrellisTransportFailure(code: URLError.Code.cancelled.rawValue, detail: "cancelled"))
        } catch {
            throw .transport(TrellisTransportFailure(code: 0, detail: String(describing: error)))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .undecodableResponse(status: 0, requestID: nil, detail: "not an HTTP response")
        }
        return (data, http)
    }

    /// Rule: the call has its own deadline, whatever the session's timeouts; FoundationNetworking ignores URLRequest's.
    private static func data(
        for request: URLRequest, session: URLSession, timeout: TimeInterval
    ) async throws -> (Data, URLResponse) {
        try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
            group.addTask { try await session.data(for: request) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, min(timeout, 1e9)) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw URLError(.timedOut) }
            return answer
        }
    }

    private func makeURLRequest<Request: TrellisEndpointRequest>(
        _ request: Request, requestID: String?
    ) throws(TrellisClientError) -> URLRequest {
        let path = Request.path.split(separator: "/").map(String.init)
        let url = path.reduce(baseURL) { $0.appendingPathComponent($1) }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if let requestID { urlRequest.setValue(requestID, forHTTPHeaderField: "X-Request-Id") }
        do {
            urlRequest.httpBody = try JSONEncoder().encode(request)
        } catch {
            throw .invalidRequest(detail: String(describing: error))
        }
        return urlRequest
    }

    /// Rule: a body that is not problem+json (e.g. the transport's HTML page) still gives the status and its reason.
    static func problem(status: Int, body: Data, requestID: String?) -> TrellisProblem {
        if var problem = try? JSONDecoder().decode(TrellisProblem.self, from: body), problem.status == status {
            problem.requestID = requestID
            return problem
        }
        return TrellisProblem(
            title: HTTPURLResponse.localizedString(forStatusCode: status), status: status,
            detail: String(decoding: body.prefix(1024), as: UTF8.self), requestID: requestID)
    }
}

/// A request body of one endpoint: its path and the type of its answer.
public protocol TrellisEndpointRequest: Encodable, Sendable {
    associatedtype Response: Decodable & Sendable
    /// The endpoint's path, e.g. `/v1/flow/layout`.
    static var path: String { get }
}

/// A decoded answer with its status and X-Request-Id.
public struct TrellisReply<Value: Sendable>: Sendable {
    public var value: Value
    public var status: Int
    /// The answer's X-Request-Id: the one sent when the service accepted it, else the one it generated.
    public var requestID: String?
}

/// One complete HTTP request, as the server hands it to a handler.
public struct TrellisRequest: Sendable {
    public var method: String
    /// The target's path; the query string is not kept (no endpoint reads one).
    public var path: String
    public var headers: TrellisHeaders
    /// The body. When the server delivers it, it is valid only during the handler call and is
    /// followed by `bodyPadding` zeroed readable bytes.
    public nonisolated(unsafe) var body: UnsafeRawBufferPointer
    public var bodyPadding: Int
    /// Why the server refused the request before its body (nil: the request is complete).
    public var rejection: HTTPRejection?

    public init(
        method: String, path: String, headers: TrellisHeaders = TrellisHeaders(),
        body: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        bodyPadding: Int = 0, rejection: HTTPRejection? = nil
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.bodyPadding = bodyPadding
        self.rejection = rejection
    }
}

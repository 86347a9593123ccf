/// What a handler answers.
public struct TrellisResponse: Sendable {
    public var status: Int
    public var headers: TrellisHeaders
    public var body: HTTPBody
    /// Close the connection after this response.
    public var closeConnection: Bool

    public init(status: Int, headers: TrellisHeaders = TrellisHeaders(), body: [UInt8] = [], closeConnection: Bool = false) {
        self.init(status: status, headers: headers, body: .bytes(body), closeConnection: closeConnection)
    }

    public init(status: Int, headers: TrellisHeaders = TrellisHeaders(), body: HTTPBody, closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeConnection = closeConnection
    }
}

import HTTPServer

/// An error response that renders itself as RFC 9457 `application/problem+json`.
public struct ProblemDetails: Error, Equatable, Sendable {
    public var status: Int
    public var title: String
    public var detail: String
    /// One entry per problem found (422 only).
    public var errors: [Problem]?
    public var extraHeaders: [(String, String)] = []

    public init(status: Int, detail: String, errors: [Problem]? = nil) {
        self.status = status
        self.title = HTTPStatus.reason(status)
        self.detail = detail
        self.errors = errors
    }

    public static func == (a: ProblemDetails, b: ProblemDetails) -> Bool {
        a.status == b.status && a.detail == b.detail && a.errors == b.errors
    }

    public static func validation(_ problems: Problems) -> ProblemDetails {
        let n = problems.count
        let detail = n == 1
            ? "The request body has 1 problem; see errors."
            : "The request body has \(n) problems; see errors" + (n > Problems.limit ? " (the first \(Problems.limit) are listed)." : ".")
        return ProblemDetails(status: 422, detail: detail, errors: problems.list)
    }

    public func response() -> HTTPResponse {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("type"); json.string("about:blank")
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
        var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
        for (name, value) in extraHeaders { headers.add(name, value) }
        return HTTPResponse(status: status, headers: headers, body: json.finish())
    }
}

import TrellisHTTP

/// Rule: a request the transport refused before its body is answered with this problem (and the transport closes
/// the connection); it still passes the middleware, so it is counted, logged and has an id.
extension HTTPRejection: RendersProblem {
    var blame: ProblemBlame? {
        switch self {
        case .bodyTooLarge: .request(status: 413)
        case .overloaded, .memoryExhausted, .bodyDelayed: .request(status: 503)
        case .unsupportedTransferEncoding, .ambiguousLength, .malformedHead, .nulInTarget, .badHost, .badTarget:
            .request(status: 400)
        }
    }

    var detail: String {
        switch self {
        case .bodyTooLarge(let limit):
            "The request body is larger than the limit of \(limit) bytes."
        case .overloaded:
            "Too many open connections; retry shortly."
        case .memoryExhausted:
            "The server is short of memory for this request's body; retry shortly."
        case .bodyDelayed:
            "The server could not read this request's body in time (too many large bodies at once); retry shortly."
        case .unsupportedTransferEncoding:
            "Transfer-Encoding other than chunked is not supported; send the body with Content-Length or chunked."
        case .ambiguousLength:
            "The body's length is ambiguous: send one Content-Length or Transfer-Encoding: chunked, not both."
        case .malformedHead:
            "The request head is malformed: header names must be tokens with the colon right after them, "
                + "values must not contain control characters other than tab, and lines must not be folded."
        case .nulInTarget:
            "The request target contains a NUL byte (raw or %00 in the path)."
        case .badHost:
            "Send exactly one Host header (HTTP/1.1 requires it) whose value is host or host:port, "
                + "without userinfo or whitespace."
        case .badTarget:
            "The request target must be a path (/v1/...), an absolute URI with a valid host "
                + "(http://host/v1/...), or * for OPTIONS, with no whitespace or control characters."
        }
    }
}

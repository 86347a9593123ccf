/// Why the server answers a request before (or instead of) reading its body, and closes its
/// connection: every reason, documented here only (the shim numbers them as `tmhd_rejection`).
public enum HTTPRejection: Sendable, Equatable {
    /// Content-Length, or the bytes received, passed the body limit.
    case bodyTooLarge(limit: Int)
    /// More connections are open than the configured maximum.
    case overloaded
    /// A Transfer-Encoding other than `chunked`: the body's end cannot be found.
    case unsupportedTransferEncoding
    /// Both Content-Length and Transfer-Encoding, or Content-Length values that differ.
    case ambiguousLength
    /// Receiving the body would pass the memory budget.
    case memoryExhausted
    /// A field name that is not a token (e.g. whitespace before the colon), a control character
    /// other than HTAB in a field value, or an obs-fold line: the head could be read two ways.
    case malformedHead
    /// A NUL in the request target, raw or as %00 in the path.
    case nulInTarget
    /// Two Host fields or more, a Host value that is not `host[:port]`, or no Host in HTTP/1.1.
    case badHost
    /// Whitespace or a control character in the target, or an absolute-form target without a valid host.
    case badTarget
    /// The body could not be read in time through no fault of the client: it waited too long for a
    /// place at the body gate, the gate's queue was full, or its deadline passed with bytes the server
    /// had not read yet (its worker was busy). Refused while it arrives; the client should retry.
    case bodyDelayed
}

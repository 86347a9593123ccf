import CMicroHTTPDShim
import TrellisHTTP

/// What the transport found in a request head, before any of the body is read.
public struct RequestFacts: Sendable, Equatable {
    /// Connections open now, this one included.
    public var openConnections = 1
    /// A field name that is not a token, a control character other than HTAB in a value, or an obs-fold line.
    public var malformedHead = false
    /// A NUL in the request target, raw or as %00 in its path.
    public var nulInTarget = false
    public var contentLengths = 0
    /// Two Content-Length fields with different values.
    public var conflictingLengths = false
    /// The (first) Content-Length value; nil when there is none or it passes 64 bits.
    public var declaredLength: UInt64?
    public var transferEncodings = 0
    /// The last Transfer-Encoding is exactly `chunked`.
    public var chunked = false
    public var hostFields = 1
    /// A Host value that is not RFC 3986 `host [ ":" port ]` (userinfo, whitespace...).
    public var hostInvalid = false
    /// The version requires Host (HTTP/1.1 and later).
    public var hostRequired = true
    /// Whitespace or a control character in the target, or an absolute-form target without a valid host.
    public var targetInvalid = false

    public init() {}
}

/// Whether a request is answered before its body (and why) or its body is read: a value the
/// server consults for every request head, tested on facts without sockets.
public struct ConnectionPolicy: Sendable {
    public var maxConnections: Int
    public var maxBodyBytes: Int
    public var memoryBudget: HTTPMemoryBudget?

    public init(maxConnections: Int, maxBodyBytes: Int, memoryBudget: HTTPMemoryBudget? = nil) {
        self.maxConnections = maxConnections
        self.maxBodyBytes = maxBodyBytes
        self.memoryBudget = memoryBudget
    }

    /// Bytes of zeroed padding the server allocates after every body (the shim's TMHD_BODY_PADDING).
    public static let bodyPadding = Int(TMHD_BODY_PADDING)

    /// nil: read the body. Otherwise the reason to answer at once (and close the connection).
    public func admit(_ facts: RequestFacts) -> HTTPRejection? {
        // Rule: past --max-connections answer 503 rather than drop the connection.
        if facts.openConnections > maxConnections { return .overloaded }
        // Rule: a head that two readers could read two ways is refused (request smuggling).
        if facts.nulInTarget { return .nulInTarget }
        if facts.malformedHead { return .malformedHead }
        if facts.targetInvalid { return .badTarget }
        // Rule: exactly one valid Host in HTTP/1.1, at most one in HTTP/1.0 (RFC 9112 §3.2).
        if facts.hostFields > 1 || facts.hostInvalid || (facts.hostRequired && facts.hostFields == 0) {
            return .badHost
        }
        // Rule: only framings the server delimits exactly get through (RFC 9112 §6.3): a lone
        // `chunked`, or one Content-Length; never both, never two different lengths.
        if facts.transferEncodings > 1 || (facts.transferEncodings == 1 && !facts.chunked) {
            return .unsupportedTransferEncoding
        }
        if facts.conflictingLengths || (facts.transferEncodings > 0 && facts.contentLengths > 0) {
            return .ambiguousLength
        }
        guard facts.contentLengths > 0 else { return nil }
        // Rule: a declared oversized body is refused before any of it is read.
        guard let length = facts.declaredLength, length <= UInt64(maxBodyBytes) else {
            return .bodyTooLarge(limit: maxBodyBytes)
        }
        // Rule: a declared body that would pass the memory budget is refused before it is read.
        if length > 0, let memoryBudget, !memoryBudget.admits(Int(length) + Self.bodyPadding) {
            return .memoryExhausted
        }
        return nil
    }
}

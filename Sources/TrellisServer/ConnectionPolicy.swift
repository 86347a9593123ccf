import CMicroHTTPDShim
import TrellisHTTP

/// Whether a request is answered before its body (and why) or its body is read: a value the
/// server consults for every request head with the facts the shim found in it (`tmhd_facts`,
/// documented in tmhd.h), tested on facts without sockets.
package struct ConnectionPolicy: Sendable {
    package var maxConnections: Int
    package var maxBodyBytes: Int
    package var memoryBudget: HTTPMemoryBudget?

    package init(maxConnections: Int, maxBodyBytes: Int, memoryBudget: HTTPMemoryBudget? = nil) {
        self.maxConnections = maxConnections
        self.maxBodyBytes = maxBodyBytes
        self.memoryBudget = memoryBudget
    }

    /// Bytes of zeroed padding the server allocates after every body (the shim's TMHD_BODY_PADDING).
    package static let bodyPadding = Int(TMHD_BODY_PADDING)

    /// nil: read the body. Otherwise the reason to answer at once (and close the connection).
    package func admit(_ facts: tmhd_facts) -> HTTPRejection? {
        // Rule: past --max-connections answer 503 rather than drop the connection.
        if Int(facts.open_connections) > maxConnections { return .overloaded }
        // Rule: a head that two readers could read two ways is refused (request smuggling).
        if facts.nul_in_target != 0 { return .nulInTarget }
        if facts.malformed_head != 0 { return .malformedHead }
        if facts.target_invalid != 0 { return .badTarget }
        // Rule: exactly one valid Host in HTTP/1.1, at most one in HTTP/1.0 (RFC 9112 §3.2).
        if facts.host_fields > 1 || facts.host_invalid != 0 || (facts.host_required != 0 && facts.host_fields == 0) {
            return .badHost
        }
        // Rule: only framings the server delimits exactly get through (RFC 9112 §6.3): a lone
        // `chunked`, or one Content-Length; never both, never two different lengths.
        if facts.transfer_encodings > 1 || (facts.transfer_encodings == 1 && facts.chunked == 0) {
            return .unsupportedTransferEncoding
        }
        if facts.conflicting_lengths != 0 || (facts.transfer_encodings > 0 && facts.content_lengths > 0) {
            return .ambiguousLength
        }
        guard facts.content_lengths > 0 else { return nil }
        // Rule: a declared oversized body is refused before any of it is read.
        guard facts.length_overflows == 0, facts.declared_length <= UInt64(maxBodyBytes) else {
            return .bodyTooLarge(limit: maxBodyBytes)
        }
        // Rule: a declared body that would pass the memory budget is refused before it is read.
        let length = Int(facts.declared_length)
        if length > 0, let memoryBudget, !memoryBudget.admits(length + Self.bodyPadding) {
            return .memoryExhausted
        }
        return nil
    }
}

/// The one mapping between a rejection and the shim's number for it (tmhd.h's `tmhd_rejection`).
extension HTTPRejection {
    /// nil for TMHD_REJECT_NONE; a body too large is refused at `bodyLimit`, the server's.
    package init?(_ code: tmhd_rejection, bodyLimit: Int) {
        switch code {
        case TMHD_REJECT_BODY_TOO_LARGE: self = .bodyTooLarge(limit: bodyLimit)
        case TMHD_REJECT_OVERLOADED: self = .overloaded
        case TMHD_REJECT_TRANSFER_ENCODING: self = .unsupportedTransferEncoding
        case TMHD_REJECT_AMBIGUOUS_LENGTH: self = .ambiguousLength
        case TMHD_REJECT_MEMORY: self = .memoryExhausted
        case TMHD_REJECT_MALFORMED_HEAD: self = .malformedHead
        case TMHD_REJECT_NUL_IN_TARGET: self = .nulInTarget
        case TMHD_REJECT_BAD_HOST: self = .badHost
        case TMHD_REJECT_BAD_TARGET: self = .badTarget
        case TMHD_REJECT_BODY_DELAYED: self = .bodyDelayed
        default: return nil
        }
    }

    package var code: tmhd_rejection {
        switch self {
        case .bodyTooLarge: TMHD_REJECT_BODY_TOO_LARGE
        case .overloaded: TMHD_REJECT_OVERLOADED
        case .unsupportedTransferEncoding: TMHD_REJECT_TRANSFER_ENCODING
        case .ambiguousLength: TMHD_REJECT_AMBIGUOUS_LENGTH
        case .memoryExhausted: TMHD_REJECT_MEMORY
        case .malformedHead: TMHD_REJECT_MALFORMED_HEAD
        case .nulInTarget: TMHD_REJECT_NUL_IN_TARGET
        case .badHost: TMHD_REJECT_BAD_HOST
        case .badTarget: TMHD_REJECT_BAD_TARGET
        case .bodyDelayed: TMHD_REJECT_BODY_DELAYED
        }
    }
}

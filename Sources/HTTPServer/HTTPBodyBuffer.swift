import Glibc

/// A response body in malloc'd memory that the server hands to libmicrohttpd without copying
/// (libmicrohttpd frees it once sent). Used by one thread at a time.
public final class HTTPBodyBuffer: @unchecked Sendable {
    // @unchecked: a buffer is filled by one handler and then only read once, by the same thread.
    private var base: UnsafeMutablePointer<UInt8>?
    public let count: Int

    /// Takes ownership of `count` bytes at `base`, allocated with malloc.
    public init(adopting base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    public var bytes: [UInt8] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Hands the memory over (to be freed with free()); the buffer is empty afterwards.
    func take() -> UnsafeMutablePointer<UInt8>? {
        defer { base = nil }
        return base
    }

    deinit { free(base) }
}

/// The bytes of a response.
public enum HTTPBody: Sendable {
    case bytes([UInt8])
    case buffer(HTTPBodyBuffer)

    public var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .buffer(let buffer): return buffer.count
        }
    }

    /// A copy of the bytes (for tests and small bodies).
    public var bytes: [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .buffer(let buffer): return buffer.bytes
        }
    }
}

import Glibc

/// A response body in malloc'd memory that the server hands to libmicrohttpd without copying
/// (libmicrohttpd frees it once sent). Used by one thread at a time.
public final class HTTPBodyBuffer: @unchecked Sendable {
    // @unchecked: a buffer is filled by one handler and then only read once, by the same thread.
    private var base: UnsafeMutablePointer<UInt8>?
    public let count: Int
    /// Bytes of the allocation reserved from `budget` (its whole capacity), given back when the
    /// memory is freed; handed to the server with the memory, which gives them back once it is sent.
    package let held: Int
    package let budget: HTTPMemoryBudget?

    /// Takes ownership of `count` bytes at `base`, allocated with malloc; `held` bytes of it were
    /// reserved from `budget`.
    public init(adopting base: UnsafeMutablePointer<UInt8>, count: Int, held: Int = 0, budget: HTTPMemoryBudget? = nil) {
        self.base = base
        self.count = count
        self.held = max(held, count)
        self.budget = budget
    }

    public var bytes: [UInt8] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Hands the memory over (to be freed with free()) with its reservation, which moves to `budget`
    /// when it was taken from another; the buffer is empty afterwards.
    package func take(into budget: HTTPMemoryBudget?) -> UnsafeMutablePointer<UInt8>? {
        guard let base else { return nil }
        self.base = nil
        if budget !== self.budget {
            self.budget?.release(held)
            budget?.take(held)
        }
        return base
    }

    deinit {
        if base != nil { budget?.release(held) }
        free(base)
    }
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

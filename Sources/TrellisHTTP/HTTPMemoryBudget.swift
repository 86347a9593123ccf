import Synchronization

/// The process's ceiling on memory clients can make it hold: bytes of request bodies being
/// received plus answers being written or not yet sent. The server takes bodies and queued
/// answers from it; a handler reserves what it writes before allocating it.
public final class HTTPMemoryBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)

    /// nil for a negative limit.
    public init?(limit: Int) {
        guard limit >= 0 else { return nil }
        self.limit = limit
    }

    public var inUse: Int { used.load(ordering: .relaxed) }
    /// Bodies and answers refused since the start.
    public var refusals: Int { refused.load(ordering: .relaxed) }

    /// Takes `bytes` when they fit under the limit; false (nothing taken, a refusal counted) otherwise.
    public func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else {
                refused.wrappingAdd(1, ordering: .relaxed)
                return false
            }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Takes bytes already allocated (a queued answer), even past the limit.
    public func take(_ bytes: Int) {
        used.wrappingAdd(bytes, ordering: .relaxed)
    }

    /// Gives back bytes taken earlier.
    public func release(_ bytes: Int) {
        used.wrappingSubtract(bytes, ordering: .relaxed)
    }

    /// True when `bytes` more would fit now; a refusal is counted when they would not.
    public func admits(_ bytes: Int) -> Bool {
        guard bytes <= limit - inUse else {
            refused.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        return true
    }
}

import CMicroHTTPDShim

/// The process's ceiling on memory clients can make it hold: bytes of request bodies being
/// received plus answers being written or not yet sent. The server accounts bodies and queued
/// answers; a handler reserves what it writes before allocating it.
public final class HTTPMemoryBudget: @unchecked Sendable {
    // @unchecked: the C budget is only touched through atomic operations.
    let raw: OpaquePointer

    /// nil when even the budget's own few bytes cannot be allocated.
    public init?(limit: Int) {
        guard let raw = tmhd_budget_create(max(0, limit)) else { return nil }
        self.raw = raw
    }

    deinit { tmhd_budget_destroy(raw) }

    public var limit: Int { tmhd_budget_limit(raw) }
    public var inUse: Int { tmhd_budget_in_use(raw) }
    /// Reservations refused since the start (bodies and answers).
    public var refusals: Int { Int(truncatingIfNeeded: tmhd_budget_refusals(raw)) }

    /// Takes `bytes` when they fit under the limit; false (nothing taken) otherwise.
    public func reserve(_ bytes: Int) -> Bool { tmhd_budget_reserve(raw, bytes) != 0 }

    /// Gives back bytes taken with `reserve`.
    public func release(_ bytes: Int) { tmhd_budget_release(raw, bytes) }
}

/// The batch's limits (docs/limits.md).
enum BatchLimits {
    /// Requests in one batch.
    static let maxRequests = 100
}

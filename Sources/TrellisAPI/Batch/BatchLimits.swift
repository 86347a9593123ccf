/// The batch's limits (README, "Limits").
enum BatchLimits {
    /// Requests in one batch.
    static let maxRequests = 100
}

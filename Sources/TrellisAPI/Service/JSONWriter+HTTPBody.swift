import TrellisHTTP
import TrellisJSON

/// The server's memory budget is what answers reserve while they are written.
extension HTTPMemoryBudget: JSONWriterBudget {}

extension JSONWriter {
    /// The written bytes as a response body, without a copy; its reservation (from `budget`, the
    /// one the writer was made with) goes with it. Empty after a failure.
    consuming func body(budget: HTTPMemoryBudget?) -> HTTPBody {
        guard let (base, count, held) = take() else { return .bytes([]) }
        return .buffer(HTTPBodyBuffer(adopting: base, count: count, held: held, budget: budget))
    }
}

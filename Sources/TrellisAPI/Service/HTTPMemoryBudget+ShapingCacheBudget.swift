import TrellisHTTP
import TrellisText

/// The shaping cache keeps its paragraphs in the memory budget the requests share: what it keeps, requests cannot.
extension HTTPMemoryBudget: ShapingCacheBudget {
    /// Rule: the cache takes bytes only while they fit under the limit (a refusal of the cache's is not a request's,
    /// so none is counted).
    public func reserveForCache(_ bytes: Int) -> Bool {
        guard bytes <= limit - inUse else { return false }
        take(bytes)
        return true
    }

    public func releaseFromCache(_ bytes: Int) {
        release(bytes)
    }
}

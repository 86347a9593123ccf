import Synchronization
import TrellisText

/// The service's fonts: empty until start-up has loaded them (then `/readyz` is ready), and the cache of
/// measured labels shared by every request.
public final class TextFonts: Sendable {
    private let state: Mutex<FontCollection?>
    public let cache: MeasureCache

    public init(_ collection: FontCollection? = nil, cache: MeasureCache = MeasureCache()) {
        state = Mutex(collection)
        self.cache = cache
    }

    public var collection: FontCollection? { state.withLock { $0 } }
    public var isLoaded: Bool { collection != nil }

    /// Start-up: the fonts are ready; requests that measure text are served from now on.
    public func install(_ collection: FontCollection) {
        state.withLock { $0 = collection }
    }

    /// The fonts, or 503 while they are still loading.
    func loaded() throws(ProblemDetails) -> FontCollection {
        guard let collection else { throw .unavailable("The fonts are still loading; retry shortly.") }
        return collection
    }
}

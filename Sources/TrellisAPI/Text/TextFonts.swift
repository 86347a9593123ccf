import Synchronization
import TrellisText

/// The service's fonts: empty until start-up has loaded them (then `/readyz` is ready), and the cache of
/// measured labels shared by every request.
public final class TextFonts: Sendable {
    private let state: Mutex<FontCollection?>
    public let cache: MeasureCache
    /// `GET /v1/fonts`'s answer and its ETag, made once per installed collection (hashing it costs ~15 µs).
    private let listing = Mutex<(collection: FontCollection, answer: FixedAnswer)?>(nil)

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

    /// The listing's answer for `collection`, made by `make` the first time.
    func listingAnswer(for collection: FontCollection, make: (FontCollection) -> FixedAnswer) -> FixedAnswer {
        listing.withLock { cached in
            if let cached, cached.collection === collection { return cached.answer }
            let answer = make(collection)
            cached = (collection, answer)
            return answer
        }
    }

    /// The fonts, or 503 while they are still loading.
    func loaded() throws(ProblemDetails) -> FontCollection {
        guard let collection else { throw .unavailable("The fonts are still loading; retry shortly.") }
        return collection
    }
}

import TrellisCore
import TrellisText

/// What the feature endpoints compute with besides a request, made once when the service is made and handed to
/// every endpoint call: the fonts (loaded before the server listens) and the uploaded ones, the measured labels shared by every request,
/// the lists kept, the drawer's recent plans and the outline search's folding tables. Nothing here is a static.
public final class FeatureContext: Sendable {
    /// The faces text is measured with.
    public let fonts: FontCollection
    /// The fonts clients uploaded (`/v1/fonts/{id}`), which requests declare in `fontFaces`.
    public let fontLibrary: FontLibrary
    /// Labels measured so far, shared by every request (bounded, seeded hashing).
    public let measureCache: MeasureCache
    /// Paragraphs shaped so far, shared by every request (bounded, in the memory budget, seeded hashing).
    public let shapingCache: ShapingCache
    /// Lists kept for later requests at other widths (bounded, in the memory budget).
    public let listStore: ListStore
    /// The threads a large list may borrow to lay out its rows on several cores at once (none: one thread a request).
    public let lanes: ThreadLanes?
    /// Recent motions' plans with their members written.
    let drawerPlans: DrawerPlanCache
    /// How label scalars fold for a search (each block made once, on first use).
    let folding = OutlineFolding()
    /// `GET /v1/fonts`'s answer and its ETag, made once (hashing it costs ~15 µs).
    let fontsListing: FixedAnswer

    public init(
        fonts: FontCollection = FontCollection(faces: []), measureCache: MeasureCache = MeasureCache(),
        fontLibrary: FontLibrary = FontLibrary(), shapingCache: ShapingCache = ShapingCache(byteCapacity: 16 << 20),
        listStore: ListStore = ListStore(byteCapacity: 16 << 20), lanes: ThreadLanes? = nil
    ) {
        self.shapingCache = shapingCache
        self.listStore = listStore
        self.lanes = lanes
        self.fonts = fonts
        self.fontLibrary = fontLibrary
        self.measureCache = measureCache
        drawerPlans = DrawerPlanCache(capacity: 64)
        fontsListing = FontsListing.answer(fonts)
    }
}

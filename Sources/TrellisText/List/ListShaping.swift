import CHarfBuzzShim

/// A list's paragraphs as they were shaped when it was laid out, kept with the list so that laying it out again at
/// other widths neither shapes nor looks up a paragraph: per paragraph its shaping, or nil for one with nothing to
/// lay out (it has no line at any width).
public struct ListShaping: Sendable {
    var paragraphs: [ShapedParagraph?]
    /// Per paragraph, where the memory a new width reads first lies: its object, its kept break opportunities and its
    /// positions (nil for a paragraph without shaping). The paragraphs are immutable, and `paragraphs` keeps them
    /// alive, so their arrays stay where they are.
    private let places: [Places?]

    struct Places: @unchecked Sendable {
        let object: UnsafeRawPointer
        let breaks: UnsafeRawPointer?
        let breaksBytes: Int
        let positions: UnsafeRawPointer?
        let positionsBytes: Int
    }

    /// Rule: the bytes it keeps: a reference per paragraph, and each shaping's arrays as the shaping cache counts
    /// them (without its text, which the list keeps). A paragraph the shaping cache keeps too is counted by both.
    public let bytes: Int

    init(_ paragraphs: [ShapedParagraph?]) {
        self.paragraphs = paragraphs
        var bytes = 48 * paragraphs.count
        for case let paragraph? in paragraphs { bytes += ShapingCache.entryBytes(paragraph, textBytes: 0) }
        self.bytes = bytes
        places = paragraphs.map { paragraph in
            paragraph.map { paragraph in
                let breaks = paragraph.keptBreaks.withUnsafeBytes { ($0.baseAddress, $0.count) }
                let positions = paragraph.positions.withUnsafeBytes { ($0.baseAddress, $0.count) }
                return Places(
                    object: UnsafeRawPointer(Unmanaged.passUnretained(paragraph).toOpaque()), breaks: breaks.0, breaksBytes: breaks.1,
                    positions: positions.0, positionsBytes: positions.1)
            }
        }
    }

    /// Rule: laid out in order, the paragraph `ahead` of the one being laid out is asked into the cache: its object,
    /// up to 256 bytes of its kept break opportunities, and its positions' first, middle and last lines (a kept
    /// paragraph is read from wherever it was made, about 7 KB of it, and a new width touches little of it: most of
    /// its time was waiting for those few lines, one after the other).
    func prefetch(_ ahead: Int) {
        guard ahead < places.count, let place = places[ahead] else { return }
        tfont_prefetch(place.object)
        tfont_prefetch(place.object + 64)
        if let breaks = place.breaks {
            for offset in stride(from: 0, to: min(place.breaksBytes, 256), by: 64) { tfont_prefetch(breaks + offset) }
        }
        if let positions = place.positions, place.positionsBytes > 0 {
            tfont_prefetch(positions)
            tfont_prefetch(positions + place.positionsBytes / 2)
            tfont_prefetch(positions + (place.positionsBytes - 1))
        }
    }

    public var count: Int { paragraphs.count }
}

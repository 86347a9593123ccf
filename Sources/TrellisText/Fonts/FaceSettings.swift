/// How one face is used in a request: the variation coordinates and OpenType features HarfBuzz shapes it with
/// (in order: later settings of a tag win), and the characters its `@font-face` rule lets it show.
public struct FaceSettings: Hashable, Sendable {
    public var variations: [FontSetting]
    public var features: [FontSetting]
    /// nil: every character.
    public var unicodeRange: UnicodeRangeSet?

    public init(variations: [FontSetting] = [], features: [FontSetting] = [], unicodeRange: UnicodeRangeSet? = nil) {
        self.variations = variations
        self.features = features
        self.unicodeRange = unicodeRange
    }

    /// An installed face as it is: no variation, no feature beyond HarfBuzz's defaults, every character.
    public static let plain = FaceSettings()

    /// Rule: a face declared with a unicode-range shows a grapheme cluster only when the range holds every
    /// scalar of it (zero-width characters aside).
    func allows(_ scalars: ArraySlice<UInt32>) -> Bool {
        guard let unicodeRange else { return true }
        return scalars.allSatisfy { unicodeRange.contains($0) || TextCharacters.isZeroWidth($0) }
    }
}

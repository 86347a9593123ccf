/// An `@font-face` rule a request declares: its family name, the face it points at (a stored font's face) and its
/// descriptors.
public struct FontFaceRule: Sendable {
    public var family: String
    public var face: FontFace
    /// The weights, widths and slopes declared (a descriptor left out is auto).
    public var capabilities: SelectionCapabilities
    /// nil: every character.
    public var unicodeRange: UnicodeRangeSet?
    /// The rule's own `font-feature-settings` and `font-variation-settings`.
    public var features: [FontSetting]
    public var variations: [FontSetting]

    public init(
        family: String, face: FontFace, capabilities: SelectionCapabilities = SelectionCapabilities(),
        unicodeRange: UnicodeRangeSet? = nil, features: [FontSetting] = [], variations: [FontSetting] = []
    ) {
        self.family = family
        self.face = face
        self.capabilities = capabilities
        self.unicodeRange = unicodeRange
        self.features = features
        self.variations = variations
    }
}

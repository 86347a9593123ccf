/// The element's font properties besides its family list: what faces are matched and set up with.
public struct FontProperties: Hashable, Sendable {
    public var size: Double
    /// Weight, width (font-stretch) and slope (font-style) for matching declared faces and setting their axes.
    public var selection: FontSelection
    /// font-style as installed faces are matched with (italic or not).
    public var style: FontStyle
    /// The element's `font-feature-settings` and `font-variation-settings`.
    public var features: [FontSetting]
    public var variations: [FontSetting]
    /// `font-optical-sizing: auto` (the opsz axis follows the size) or `none` (its default).
    public var opticalSizing: Bool

    public init(
        size: Double, weight: Double = 400, width: Double = 100, style: FontStyle = .normal, slope: Double? = nil,
        features: [FontSetting] = [], variations: [FontSetting] = [], opticalSizing: Bool = true
    ) {
        self.size = size
        selection = FontSelection(weight: weight, width: width, slope: slope ?? (style == .normal ? 0 : FontSelection.italicSlope))
        self.style = style
        self.features = features
        self.variations = variations
        self.opticalSizing = opticalSizing
    }
}

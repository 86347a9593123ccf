/// An OpenType feature's value or a variation axis's coordinate: one entry of CSS `font-feature-settings` or
/// `font-variation-settings`.
public struct FontSetting: Hashable, Sendable {
    public var tag: FontTag
    public var value: Double

    public init(_ tag: FontTag, _ value: Double) {
        self.tag = tag
        self.value = value
    }
}

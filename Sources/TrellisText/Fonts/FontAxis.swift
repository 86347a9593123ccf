/// A variation axis of a face (OpenType fvar), in the font's design units.
public struct FontAxis: Equatable, Sendable {
    public var tag: FontTag
    public var minimum: Double
    public var defaultValue: Double
    public var maximum: Double
    /// The font asks that the axis not be shown to users (fvar's HIDDEN_AXIS flag).
    public var isHidden: Bool

    public init(tag: FontTag, minimum: Double, defaultValue: Double, maximum: Double, isHidden: Bool = false) {
        self.tag = tag
        self.minimum = minimum
        self.defaultValue = defaultValue
        self.maximum = maximum
        self.isHidden = isHidden
    }
}

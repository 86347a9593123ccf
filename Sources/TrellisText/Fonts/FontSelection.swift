/// A font's weight, width (font-stretch, in percent) and slope (in degrees, CSS's direction: 14 for italic and
/// `oblique`), each in Blink's FontSelectionValue resolution: a multiple of 1/4, truncated toward zero.
public struct FontSelection: Hashable, Sendable {
    public var weight: Double
    public var width: Double
    public var slope: Double

    public init(weight: Double = 400, width: Double = 100, slope: Double = 0) {
        self.weight = Self.quantized(weight)
        self.width = Self.quantized(width)
        self.slope = Self.quantized(slope)
    }

    /// Rule: Blink's FontSelectionValue keeps values as 16-bit multiples of 1/4 (x × 4 truncated).
    public static func quantized(_ value: Double) -> Double {
        (max(-8192, min(8191.75, value)) * 4).rounded(.towardZero) / 4
    }

    /// Rule: `font-style: italic` and plain `oblique` are a slope of 14 degrees.
    public static let italicSlope = 14.0
}

/// CSS `line-height` other than `normal`, as given, before the font size resolves it.
public enum LineHeight: Sendable, Equatable {
    /// A length in px.
    case length(Double)
    /// A number: that many times the font size.
    case number(Double)
    /// A percentage of the font size.
    case percentage(Double)

    /// Rule (Chromium's, measured): the line height in px at the font size `size`, computed in float as Blink does:
    /// a number as the percentage it is stored as (the number × 100, a float) of the size, floored to 1/64 px (1.2 ×
    /// 16 px is 19.1875 px; 1.05 × 12.5 px is 13.125 px, where the float product 1.05 × 12.5 would floor to 13.109375);
    /// a length rounded to 1/64 px; a percentage cut to a whole percent (87.9% is 87%), of the size, rounded to 1/64 px.
    public func px(fontSize size: Double) -> Double {
        switch self {
        case .length(let px): return Self.rounded(Float(px))
        case .number(let factor):
            let percent = Float(factor * 100)
            return Double((Float(size) * percent / 100 * 64).rounded(.down)) / 64
        case .percentage(let percent): return Self.rounded(Float(size) * Float(percent.rounded(.towardZero)) / 100)
        }
    }

    private static func rounded(_ px: Float) -> Double {
        Double((px * 64).rounded(.toNearestOrAwayFromZero)) / 64
    }
}

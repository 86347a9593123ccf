/// CSS `line-height` other than `normal`, as given, before the font size resolves it.
public enum LineHeight: Sendable, Equatable {
    /// A length in px.
    case length(Double)
    /// A number: that many times the font size.
    case number(Double)
    /// A percentage of the font size.
    case percentage(Double)

    /// Rule (Chromium's, measured): the line height in px at the font size `size`, computed in float as Blink does:
    /// a number times the size floored to 1/64 px (1.2 × 16 px is 19.1875 px); a length rounded to 1/64 px; a
    /// percentage cut to a whole percent (87.9% is 87%), of the size, rounded to 1/64 px.
    public func px(fontSize size: Double) -> Double {
        switch self {
        case .length(let px): return Self.rounded(Float(px))
        case .number(let factor): return Double((Float(size) * Float(factor) * 64).rounded(.down)) / 64
        case .percentage(let percent): return Self.rounded(Float(size) * Float(percent.rounded(.towardZero)) / 100)
        }
    }

    private static func rounded(_ px: Float) -> Double {
        Double((px * 64).rounded(.toNearestOrAwayFromZero)) / 64
    }
}

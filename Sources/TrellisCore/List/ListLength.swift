/// Lengths as Blink lays a list out: in LayoutUnits of 1/64 px.
public enum ListLength {
    /// Rule: a CSS length in px (padding, gap, height, min-height) becomes a LayoutUnit as Blink converts
    /// it: the value as a float, times 64, truncated toward zero (0.1 px is 6/64 px).
    public static func layoutUnit(_ px: Double) -> Double {
        guard px.isFinite else { return 0 }
        let units = (Float(px) * 64).rounded(.towardZero)
        return Double(units) / 64
    }
}

extension ListLength {
    /// Rule: a `line-height` in px becomes a LayoutUnit rounded to the nearest 1/64 px (Blink rounds a line
    /// height where it truncates other lengths: 17.01 px is 1089/64 px).
    public static func lineHeight(_ px: Double) -> Double {
        guard px.isFinite else { return 0 }
        return Double((Float(px) * 64).rounded(.toNearestOrAwayFromZero)) / 64
    }
}

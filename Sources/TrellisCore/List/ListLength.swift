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

import CHarfBuzzShim
#if canImport(Glibc)
import Glibc
#endif

/// The line box of a face at a size, in CSS px (whole pixels).
public struct LineMetrics: Equatable, Sendable {
    public var ascent: Double
    public var descent: Double
    public var lineGap: Double
    /// What `line-height: normal` gives a line set in the face alone.
    public var lineHeight: Double { ascent + descent + lineGap }

    public init(ascent: Double, descent: Double, lineGap: Double) {
        self.ascent = ascent
        self.descent = descent
        self.lineGap = lineGap
    }
}

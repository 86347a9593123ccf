import TrellisJSON

/// The documented limits of text measurement (openapi.yaml and docs/limits.md quote them); 422 past them.
enum TextLimits {
    /// Rule: texts per request.
    static let maxTexts = 10_000
    /// Rule: Unicode scalars per text.
    static let maxScalars = 1_000
    /// Rule for `size`: greater than 0, at most 1000 px.
    static let sizes = NumberRange.openClosed(0, 1000)
    /// Rule for `weight`: an integer 1–1000.
    static let weights = 1...1000
    /// Rule for `letterSpacing` and `wordSpacing`: a length within [-1000, 1000] px (what an em comes to, too), or
    /// within [-100, 100] em.
    static let spacings = NumberRange.closed(-1000, 1000)
    static let spacingEms = NumberRange.closed(-100, 100)
    /// The longest family list read.
    static let maxFamilyBytes = 4096
}

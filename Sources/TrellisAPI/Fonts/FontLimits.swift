/// The documented limits of uploaded fonts on the wire (openapi.yaml and docs/fonts.md quote them); 422 past them.
enum FontLimits {
    /// Rule: `@font-face` rules per request.
    static let maxFontFaces = 256
    /// Rule: bytes of a declared family name.
    static let maxFamilyBytes = 256
    /// Rule: bytes of a descriptor's text (weight, style, stretch, unicode-range, feature and variation settings).
    static let maxDescriptorBytes = 4096
}

import CHarfBuzzShim

/// The text rules about single characters.
public enum TextCharacters {
    /// Rule: C0 and C1 controls, DEL, bidi embeddings and overrides (U+202A–U+202E)
    /// and isolates (U+2066–U+2069).
    public static func isForbidden(_ scalar: UInt32) -> Bool {
        scalar <= 0x1F || (0x7F...0x9F).contains(scalar) || (0x202A...0x202E).contains(scalar)
            || (0x2066...0x2069).contains(scalar)
    }

    /// Rule: tab, line feed and carriage return are the control characters a paragraph takes: it processes them as
    /// white space (CSS Text 3), collapsed or preserved as its `white-space` says.
    public static func isWhiteSpaceControl(_ scalar: UInt32) -> Bool {
        scalar == 0x09 || scalar == 0x0A || scalar == 0x0D
    }

    /// Rule: U+200B–U+200F, U+2060, U+FEFF, U+00AD measure 0 and are never uncovered.
    public static func isZeroWidth(_ scalar: UInt32) -> Bool {
        (0x200B...0x200F).contains(scalar) || scalar == 0x2060 || scalar == 0xFEFF || scalar == 0xAD
    }
}

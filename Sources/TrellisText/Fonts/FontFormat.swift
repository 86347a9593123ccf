/// The container a font file came in, by its first four bytes, named as CSS `@font-face src: format()` names it.
public enum FontFormat: Sendable, CaseIterable {
    /// An sfnt with TrueType outlines (0x00010000 or `true`).
    case truetype
    /// An sfnt with CFF outlines (`OTTO`).
    case opentype
    /// A TrueType or OpenType collection (`ttcf`): several faces.
    case collection
    /// WOFF 1.0 (`wOFF`): zlib-compressed tables.
    case woff
    /// WOFF 2.0 (`wOF2`): Brotli-compressed, transformed tables.
    case woff2

    /// Rule: the format a file's signature names; nil for anything else (not a font file).
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> FontFormat? {
        guard bytes.count >= 4 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x00, 0x01, 0x00, 0x00), (0x74, 0x72, 0x75, 0x65): return .truetype
        case (0x4F, 0x54, 0x54, 0x4F): return .opentype
        case (0x74, 0x74, 0x63, 0x66): return .collection
        case (0x77, 0x4F, 0x46, 0x46): return .woff
        case (0x77, 0x4F, 0x46, 0x32): return .woff2
        default: return nil
        }
    }
}

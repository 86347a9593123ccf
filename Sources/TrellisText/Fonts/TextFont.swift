import CHarfBuzzShim

/// A resolved request font: the faces of its family list in fallback order, each with how the request uses it
/// (variations, features, unicode-range), at one size in CSS px; `primary` is the face whose line metrics the
/// font has.
public struct TextFont: Sendable {
    public let faces: [FontFace]
    /// Per face, in the same order.
    public let settings: [FaceSettings]
    public let size: Double
    /// Rule for `height`: the first family's face whose unicode-range holds U+0020 (the first face without
    /// declared ranges), as Blink picks a segmented family's primary font.
    public let primary: Int

    /// nil without faces, when the settings are not one per face, when `primary` is not a face, or when the size is
    /// not positive and finite.
    public init?(faces: [FontFace], settings: [FaceSettings]? = nil, size: Double, primary: Int = 0) {
        guard !faces.isEmpty, size > 0, size.isFinite, faces.indices.contains(primary) else { return nil }
        let settings = settings ?? Array(repeating: .plain, count: faces.count)
        guard settings.count == faces.count else { return nil }
        self.faces = faces
        self.settings = settings
        self.size = size
        self.primary = primary
    }

    /// Rule for `height`: the primary face's line; fallback faces do not change it.
    public var lineMetrics: LineMetrics { faces[primary].lineMetrics(size: size) }

    /// Rule for `width`: HarfBuzz's scale, the size in 16.16 fixed point (exact on the 1/4 px grid).
    var scale: Int32 { Int32((size * 65536).rounded()) }

    /// What a measured width depends on: the faces and their settings, in order, and the scale.
    var key: FontKey { FontKey(faces: faces, settings: settings, scale: scale) }

    /// The sized HarfBuzz font of face `index` with its settings; nil when memory ran out.
    func makeSizedFont(_ index: Int) -> OpaquePointer? {
        let settings = settings[index]
        func raw(_ list: [FontSetting]) -> [tfont_setting] { list.map { tfont_setting(tag: $0.tag.value, value: Float($0.value)) } }
        let variations = raw(settings.variations), features = raw(settings.features)
        return tfont_font_create(faces[index].face, scale, variations, variations.count, features, features.count)
    }
}

/// Faces compared by identity, with their settings; the key holds them, so no other face can take a cached face's
/// identity.
struct FontKey: Hashable, Sendable {
    var faces: [FontFace]
    var settings: [FaceSettings]
    var scale: Int32

    static func == (a: FontKey, b: FontKey) -> Bool {
        a.scale == b.scale && a.faces.count == b.faces.count && zip(a.faces, b.faces).allSatisfy { $0 === $1 }
            && a.settings == b.settings
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(scale)
        for face in faces { hasher.combine(ObjectIdentifier(face)) }
        hasher.combine(settings)
    }
}

/// Why a text cannot be measured.
public enum TextRefusal: Error, Equatable, Sendable {
    /// Rule: a control character or an explicit bidi embedding or isolate, at
    /// this scalar offset.
    case forbidden(scalar: UInt32, offset: Int)
    /// Rule: grapheme clusters (their scalars) that no face of the list shapes without .notdef.
    case uncovered([[UInt32]])
    /// Rule: a grapheme cluster of more scalars than TextMeasurer.maxClusterScalars,
    /// starting at this scalar offset.
    case clusterTooLong(offset: Int, scalars: Int)
    /// The caller's WorkMeter said stop (its deadline passed).
    case stopped
    /// Memory ran out in HarfBuzz or ICU.
    case outOfMemory
}

/// The text rules about single characters.
public enum TextCharacters {
    /// Rule: C0 and C1 controls, DEL, bidi embeddings and overrides (U+202A–U+202E)
    /// and isolates (U+2066–U+2069).
    public static func isForbidden(_ scalar: UInt32) -> Bool {
        scalar <= 0x1F || (0x7F...0x9F).contains(scalar) || (0x202A...0x202E).contains(scalar)
            || (0x2066...0x2069).contains(scalar)
    }

    /// Rule: U+200B–U+200F, U+2060, U+FEFF, U+00AD measure 0 and are never uncovered.
    public static func isZeroWidth(_ scalar: UInt32) -> Bool {
        (0x200B...0x200F).contains(scalar) || scalar == 0x2060 || scalar == 0xFEFF || scalar == 0xAD
    }
}

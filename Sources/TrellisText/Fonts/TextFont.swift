import CHarfBuzzShim

/// A resolved request font: the faces of its family list in fallback order, each with how the request uses it
/// (variations, features, unicode-range), at one size in CSS px; `primary` is the face whose line metrics the
/// font has.
public struct TextFont: Sendable {
    public let faces: [FontFace]
    /// Per face, in the same order.
    public private(set) var settings: [FaceSettings]
    public let size: Double
    /// Rule for `height`: the first family's face whose unicode-range holds U+0020 (the first face without
    /// declared ranges), as Blink picks a segmented family's primary font.
    public let primary: Int
    /// `letter-spacing` and `word-spacing` (`spaced(_:)`).
    public private(set) var spacing: TextSpacing = .none
    /// The standard font's face (`FontCollection.standardFace`), where a hyphen or an ellipsis that no face has is
    /// shaped (`withStandard(_:)`); its sized font is `makeSizedFont(faces.count)`.
    public private(set) var standard: FontFace?

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
    var key: FontKey { FontKey(faces: faces.map(\.serial), settings: settings, scale: scale, spacing: spacing) }

    /// The font with `spacing`. Rule (Blink's font features): with letter spacing other than 0, every face shapes
    /// without its optional ligatures (`liga`, `clig` and `calt` off, before the face's own settings, which win).
    public func spaced(_ spacing: TextSpacing) -> TextFont {
        var font = self
        font.spacing = spacing
        if spacing.letter != 0 {
            // 'liga', 'clig', 'calt'
            let off = [0x6C69_6761, 0x636C_6967, 0x6361_6C74].map { FontSetting(FontTag(UInt32($0)), 0) }
            font.settings = settings.map { face in
                var face = face
                face.features = off + face.features
                return face
            }
        }
        return font
    }

    /// The font with `standard` as its standard face.
    public func withStandard(_ standard: FontFace?) -> TextFont {
        var font = self
        font.standard = standard
        return font
    }

    /// The sized HarfBuzz font of face `index` at its instance, with its settings (index `faces.count`: the standard
    /// face, plain); nil when memory ran out or there is no such face.
    func makeSizedFont(_ index: Int) -> OpaquePointer? {
        if index == faces.count {
            guard let standard else { return nil }
            let instance = standard.instance.map { tfont_setting(tag: $0.tag.value, value: Float($0.value)) }
            return tfont_font_create(standard.face, scale, instance, instance.count, [], 0)
        }
        let settings = settings[index]
        func raw(_ list: [FontSetting]) -> [tfont_setting] { list.map { tfont_setting(tag: $0.tag.value, value: Float($0.value)) } }
        // An installed named instance's coordinates first: the request's own variations win over them.
        let variations = raw(faces[index].instance + settings.variations), features = raw(settings.features)
        return tfont_font_create(faces[index].face, scale, variations, variations.count, features, features.count)
    }
}

/// CSS `letter-spacing` and `word-spacing` resolved to px (an `em` is the font's size): part of the font, as Blink keeps
/// them in its font description.
public struct TextSpacing: Sendable, Hashable {
    /// Added after every glyph cluster (outside cursive scripts).
    public var letter: Double
    /// Added after every space and no-break space.
    public var word: Double

    public init(letter: Double = 0, word: Double = 0) {
        self.letter = letter
        self.word = word
    }

    /// CSS's initial values: no spacing.
    public static let none = TextSpacing()

    public var isNone: Bool { letter == 0 && word == 0 }
}

extension TextSpacing {
    /// Rule (Blink's `ShapeResultSpacing::ComputeSpacing`): the spacing after a glyph cluster whose first scalar is
    /// `scalar`, at `index` in the text laid out, in a run of script `script`, in 1/65536 px. Letter spacing follows
    /// every cluster but one that starts with a zero-width character (a control, a zero-width space or joiner, a mark of
    /// direction, the soft hyphen, the byte order mark, the object replacement character), and none in a cursive
    /// script's run (Arabic, digits in it too; measured). Word spacing follows every space (U+0020, and a line feed
    /// shaped as one) and no-break space, but not a space at the text's very start. Added in float px, then cut to
    /// 1/65536 px (a LayoutUnit of a text run).
    func clusterSpacing(_ scalar: UInt32, index: Int, script: UInt32) -> Int64 {
        var px: Float = 0
        if letter != 0 && !Self.isZeroWidth(scalar) && (!Self.isCursive(script) || scalar == 0x20 || scalar == 0xA0) { px += Float(letter) }
        if word != 0 && (scalar == 0x20 || scalar == 0x0A || scalar == 0xA0) { px += Float(word) }
        return Int64((px * 65536).rounded(.towardZero))
    }

    /// Adds each glyph cluster's spacing to the advance of the scalar that starts it: `advances[k]` and `flags[k]`
    /// (bit 0: a cluster starts) are those of `scalars[start + k]`, for k below `count`.
    func apply(
        to advances: inout [Int64], flags: [UInt8], _ scalars: [UInt32], start: Int, count: Int, script: UInt32
    ) {
        for k in 0..<count where flags[k] & 1 != 0 {
            advances[k] += clusterSpacing(scalars[start + k], index: start + k, script: script)
        }
    }

    /// Blink's `Character::TreatAsZeroWidthSpace`: C0 and C1 controls and DEL, the soft hyphen, the zero-width space,
    /// non-joiner and joiner, the marks and embeddings of direction, the byte order mark and U+FFFC.
    static func isZeroWidth(_ scalar: UInt32) -> Bool {
        scalar < 0x20 || (0x7F..<0xA0).contains(scalar) || scalar == 0xAD || (0x200B...0x200F).contains(scalar)
            || (0x202A...0x202E).contains(scalar) || scalar == 0xFEFF || scalar == 0xFFFC
    }

    /// Scripts whose letters join, which take no letter spacing (CSS Text 3's cursive scripts: Arabic, Syriac, N'Ko,
    /// Mandaic, Mongolian, Phags-pa, Hanifi Rohingya).
    static let cursiveScripts: Set<UInt32> = Set(["Arab", "Syrc", "Nkoo", "Mand", "Mong", "Phag", "Rohg"].map { name in
        name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    })

    static func isCursive(_ script: UInt32) -> Bool { cursiveScripts.contains(script) }
}

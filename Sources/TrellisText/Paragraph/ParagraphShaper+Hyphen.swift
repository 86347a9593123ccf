import CHarfBuzzShim

extension ParagraphShaper {
    /// The hyphen a line broken at a soft hyphen ends in.
    struct Hyphen {
        let text: String
        /// Its advance, rounded up to 1/64 px, in 1/65536 px.
        let width: Int64
    }

    static let softHyphen: UInt32 = 0xAD

    /// Rule (Blink's `HyphenString` and line breaker): with `hyphens: manual`, a line that a wrap ends just after a soft
    /// hyphen (not the paragraph's last line, nor one ending in a forced break) shows a hyphen, which counts in its
    /// width when the line is fitted; 0 otherwise (1/65536 px).
    func hyphenAdvance(_ paragraph: ShapedParagraph, _ end: Int, segmentEnd: Int, style: ParagraphStyle) -> Int64 {
        guard style.hyphens == .manual, end > 0, end < segmentEnd, paragraph.scalars[end - 1] == Self.softHyphen else { return 0 }
        return hyphen()?.width ?? 0
    }

    /// The hyphen: U+2010 when the primary face's cmap has it, else U+002D, shaped in the first face that may show it
    /// and has it (the primary first); its advance rounded up to 1/64 px as an item of its own. nil when no face has
    /// it or memory ran out (the line then shows none).
    func hyphen() -> Hyphen? {
        if let shaped = hyphenShape { return shaped }
        let shaped = shapeHyphen()
        hyphenShape = .some(shaped)
        return shaped
    }

    private func shapeHyphen() -> Hyphen? {
        guard let primary = sizedFont(font.primary) else { return nil }
        let hyphen: [UInt32] = [0x2010]
        let text: [UInt32] = tfont_font_covers(primary, hyphen, 1, 0, 1) == 1 ? hyphen : [0x2D]
        let order = [font.primary] + font.faces.indices.filter { $0 != font.primary }
        for index in order where font.settings[index].allows(text[...]) {
            guard let sized = sizedFont(index) else { return nil }
            guard tfont_font_covers(sized, text, 1, 0, 1) == 1 else { continue }
            var advance: Int64 = 0
            var flags: UInt8 = 0
            guard tfont_font_shape_clusters(sized, text, 1, 0, 1, 0, TextMeasurer.common, &advance, &flags) == 0 else { return nil }
            let drawn = String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
            return Hyphen(text: drawn, width: ShapedParagraph.ceiling(advance))
        }
        return nil
    }
}

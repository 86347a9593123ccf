import CHarfBuzzShim

extension ParagraphShaper {
    /// Text the layout adds that the paragraph does not have: the hyphen a line broken at a soft hyphen ends in, the
    /// ellipsis a clamped or cut line ends in.
    struct Generated {
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

    /// The hyphen: U+2010 when the primary face's cmap has it, else U+002D (Blink's `HyphenString`). nil when no face
    /// has it or memory ran out (the line then shows none).
    func hyphen() -> Generated? {
        if let shaped = hyphenShape { return shaped }
        let shaped = shapeGenerated([0x2010], else: [0x2D])
        hyphenShape = .some(shaped)
        return shaped
    }

    /// The ellipsis: U+2026 when the primary face's cmap has it (its unicode-range aside), else three full stops
    /// (Blink's). nil when no face has them or memory ran out.
    func ellipsisWidth() -> Generated? {
        if let shaped = ellipsisShape { return shaped }
        let shaped = shapeGenerated([0x2026], else: [0x2E, 0x2E, 0x2E])
        ellipsisShape = .some(shaped)
        return shaped
    }

    /// Rule (Blink's font fallback for generated text): `preferred` when the primary face's cmap has it, else
    /// `otherwise`, shaped in the first face that may show it and has it: the primary face, the other listed faces in
    /// order, then the standard font (`FontCollection.standardFace`); its advance rounded up to 1/64 px as an item of
    /// its own.
    private func shapeGenerated(_ preferred: [UInt32], else otherwise: [UInt32]) -> Generated? {
        guard let primary = sizedFont(font.primary) else { return nil }
        let text = tfont_font_covers(primary, preferred, preferred.count, 0, preferred.count) == 1 ? preferred : otherwise
        var order = ([font.primary] + font.faces.indices.filter { $0 != font.primary }).filter { font.settings[$0].allows(text[...]) }
        if font.standard != nil { order.append(font.faces.count) }
        for index in order {
            guard let sized = sizedFont(index) else { return nil }
            guard tfont_font_covers(sized, text, text.count, 0, text.count) == 1 else { continue }
            var advances = [Int64](repeating: 0, count: text.count)
            var flags = [UInt8](repeating: 0, count: text.count)
            guard tfont_font_shape_clusters(sized, text, text.count, 0, text.count, 0, TextMeasurer.common, &advances, &flags) == 0
            else { return nil }
            let drawn = String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
            return Generated(text: drawn, width: ShapedParagraph.ceiling(advances.reduce(0, +)))
        }
        return nil
    }
}

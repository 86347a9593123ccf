import TrellisJSON
import TrellisText

/// The paragraph properties of `/v1/text/layout`, read where a list gives them: the list's shared defaults
/// and each paragraph's own.
enum ListParagraphStyleReader {
    /// `base` with every property given (null or absent: base's), each problem recorded at its value.
    static func read(
        whiteSpace: JSONValue?, wordBreak: JSONValue?, overflowWrap: JSONValue?, maxLines: JSONValue?, textOverflow: JSONValue?,
        lineHeight: JSONValue?, fontSize: Double?, over base: ParagraphStyle, _ problems: inout Problems
    ) -> ParagraphStyle {
        var style = base
        if let value = whiteSpace?.oneOf(WhiteSpace.self, &problems) { style.whiteSpace = value }
        if let value = wordBreak?.oneOf(WordBreak.self, &problems) { style.wordBreak = value }
        if let value = overflowWrap?.oneOf(OverflowWrap.self, &problems) { style.overflowWrap = value }
        if let value = maxLines?.integer(&problems, min: 1, max: TextLayoutLimits.maxLinesLimit) { style.maxLines = value }
        if let value = textOverflow?.oneOf(TextOverflow.self, &problems) { style.textOverflow = value }
        // Rule for `lineHeight`: the forms `/v1/text/layout` takes, resolved at the font's size; `normal` is normal even
        // over a list's shared value.
        if let value = lineHeight {
            if value.string == "normal" {
                style.lineHeight = nil
            } else if let px = TextLayoutRequest.readLineHeight(value, fontSize: fontSize, &problems) {
                style.lineHeight = px
            }
        }
        return style
    }

    /// `textWrap`, when given (null or absent: the style's).
    static func readTextWrap(_ value: JSONValue?, into style: inout ParagraphStyle, _ problems: inout Problems) {
        if let value = value?.oneOf(TextWrap.self, &problems) { style.textWrap = value }
    }
}

/// Paragraph styles compared as values, so that a list's distinct styles are kept once.
struct ListStyleKey: Hashable {
    let style: ParagraphStyle

    static func == (a: ListStyleKey, b: ListStyleKey) -> Bool { a.style == b.style }

    func hash(into hasher: inout Hasher) {
        hasher.combine(style.whiteSpace)
        hasher.combine(style.wordBreak)
        hasher.combine(style.overflowWrap)
        hasher.combine(style.maxLines)
        hasher.combine(style.textOverflow)
        hasher.combine(style.lineHeight)
        hasher.combine(style.textWrap)
    }
}

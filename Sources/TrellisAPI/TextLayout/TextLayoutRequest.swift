import TrellisJSON
import TrellisText

/// A paragraph layout request: `{font, texts, width | widths, whiteSpace?, wordBreak?, overflowWrap?,
/// maxLines?, textOverflow?, lineHeight?, tabSize?, contentWidths?, letterSpacing?, wordSpacing?, hyphens?, …}`.
struct TextLayoutRequest: FeatureRequest {
    var font: TextFont
    var texts: [(value: JSONValue, text: String)]
    /// The box widths to lay every text out at (one, from `width`, or each of `widths`).
    var widths: [Double]
    /// Rule for `widths`: the answer gives each text a layout per width (`layouts`) instead of one.
    var perWidth: Bool
    var style: ParagraphStyle
    /// Rule for `contentWidths`: the answer gives each text its min-content and max-content widths.
    var contentWidths: Bool

    /// The body's members.
    enum Member: Int, JSONMember {
        case font, fontFaces, texts, width, widths, whiteSpace, wordBreak, overflowWrap, maxLines, textOverflow, lineHeight, contentWidths
        case tabSize, textAlign, textAlignLast, textIndent
        case letterSpacing, wordSpacing
        case hyphens
        case textWrap
        static let keys = JSONKeys(Member.self)
    }

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = body.fields(Member.self)
        let font = members.required(Member.font, &problems).flatMap {
            TextFontRequest.read($0, faces: members.optional(Member.fontFaces), context, &problems)
        }
        let texts = TextFontRequest.readTexts(members.required(Member.texts, &problems), &problems)
        let widths = Self.readWidths(body, members[Member.width], members[Member.widths], &problems)
        var style = ParagraphStyle()
        if let value = members.optional(Member.whiteSpace)?.oneOf(WhiteSpace.self, &problems) { style.whiteSpace = value }
        if let value = members.optional(Member.wordBreak)?.oneOf(WordBreak.self, &problems) { style.wordBreak = value }
        if let value = members.optional(Member.overflowWrap)?.oneOf(OverflowWrap.self, &problems) { style.overflowWrap = value }
        style.maxLines = members.optional(Member.maxLines)?.integer(&problems, min: 1, max: TextLayoutLimits.maxLinesLimit)
        if let value = members.optional(Member.textOverflow)?.oneOf(TextOverflow.self, &problems) { style.textOverflow = value }
        if let value = members.optional(Member.lineHeight) { style.lineHeight = Self.readLineHeight(value, fontSize: font?.size, &problems) }
        if let value = members.optional(Member.tabSize).flatMap({ Self.readTabSize($0, &problems) }) { style.tabSize = value }
        if let value = members.optional(Member.textAlign)?.oneOf(TextAlign.self, &problems) { style.textAlign = value }
        if let value = members.optional(Member.textAlignLast)?.oneOf(TextAlignLast.self, &problems) { style.textAlignLast = value }
        if let value = members.optional(Member.textIndent)?.cssDimension(
            &problems, numberUnit: "px", units: [("px", TextLayoutLimits.textIndents), ("%", TextLayoutLimits.textIndentPercentages)],
            expected: #"a number of px within (-10000000, 10000000), or in a string a length in px or a percentage of the width within [-1000, 1000] ("24px", "-8px", "10%")"#)
        {
            style.textIndent = value.unit == "%" ? .percentage(value.value) : .length(value.value)
        }
        if let value = members.optional(Member.hyphens)?.oneOf(Hyphens.self, &problems) { style.hyphens = value }
        if let value = members.optional(Member.textWrap)?.oneOf(TextWrap.self, &problems) { style.textWrap = value }
        let contentWidths = members.optional(Member.contentWidths)?.boolean(&problems) ?? false
        let spacing = TextSpacingRequest.read(
            letter: members.optional(Member.letterSpacing), word: members.optional(Member.wordSpacing), fontSize: font?.size, &problems)
        guard problems.count == before, let font, let spacing else { return nil }
        self.font = spacing.isNone ? font : font.spaced(spacing)
        self.texts = texts
        self.widths = widths
        self.perWidth = members[Member.widths] != nil
        self.style = style
        self.contentWidths = contentWidths
    }

    /// Rule for `lineHeight`: a JSON number is px; a string is `normal` or a CSS number (times the font size), percentage
    /// (of the font size) or length in px; resolved at the font's size (`LineHeight.px`), it is greater than 0 and less
    /// than 10,000 px. nil for `normal`, and with a problem.
    static func readLineHeight(_ value: JSONValue, fontSize: Double?, _ problems: inout Problems) -> Double? {
        let lineHeight: LineHeight
        if value.string == "normal" {
            return nil
        } else if value.string == nil {
            guard let px = value.number(&problems, TextLayoutLimits.lineHeights) else { return nil }
            lineHeight = .length(px)
        } else {
            guard let given = value.cssDimension(
                &problems, numberUnit: "px",
                units: [("px", TextLayoutLimits.lineHeights), ("", TextLayoutLimits.lineHeightFactors), ("%", TextLayoutLimits.lineHeightPercentages)],
                expected: #""normal", a number (times the font size) such as "1.5", a percentage such as "150%" or a length such as "24px""#)
            else { return nil }
            lineHeight = given.unit == "px" ? .length(given.value) : given.unit == "%" ? .percentage(given.value) : .number(given.value)
        }
        guard let fontSize else { return nil }
        let px = lineHeight.px(fontSize: fontSize)
        guard TextLayoutLimits.lineHeights.contains(px) else {
            problems.add(at: value, "must come to more than 0 and less than 10,000 px at the font's size")
            return nil
        }
        return px
    }

    /// Rule for `tabSize`: a number of spaces (a JSON number, or a CSS number in a string), or a CSS length in px.
    static func readTabSize(_ value: JSONValue, _ problems: inout Problems) -> TabSize? {
        guard let size = value.cssDimension(
            &problems, numberUnit: "", units: [("", TextLayoutLimits.tabSpaces), ("px", TextLayoutLimits.tabLengths)],
            expected: #"a number of spaces within [0, 1000], or a length within [0, 100000] px such as "20px""#)
        else { return nil }
        return size.unit.isEmpty ? .spaces(size.value) : .length(size.value)
    }
}

extension TextLayoutRequest {
    /// Rule for `width`: exactly one of width and widths (1 to 16), neither null, each as a paragraph's.
    static func readWidths(_ body: JSONValue, _ single: JSONValue?, _ several: JSONValue?, _ problems: inout Problems) -> [Double] {
        var widths: [Double] = []
        switch (single, several) {
        case (nil, nil):
            problems.add(at: body, member: "width", "is required (or give widths)")
        case (.some, .some):
            problems.add(at: body, "has both width and widths: give one or the other")
        case (.some(let value), nil):
            if let width = value.number(&problems, TextLayoutLimits.widths) { widths = [width] }
        case (nil, .some(let value)):
            if let elements = value.array(&problems, maxCount: TextLayoutLimits.maxWidths) {
                if value.count == 0 { problems.add(at: value, "must have at least 1 element") }
                for element in elements {
                    if let width = element.number(&problems, TextLayoutLimits.widths) { widths.append(width) }
                }
            }
        }
        return widths
    }
}

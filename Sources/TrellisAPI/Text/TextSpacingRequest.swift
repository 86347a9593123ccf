import TrellisJSON
import TrellisText

/// `letterSpacing` and `wordSpacing` as the text endpoints and flow chips take them: px as a JSON number, or in a string
/// `normal` or a CSS length in px or em ("1.5px", "-0.05em").
enum TextSpacingRequest {
    static let expected =
        #""normal", a number of px within [-1000, 1000], or in a string a length in px within [-1000, 1000] or in em within [-100, 100] ("1.5px", "0.05em", "-0.02em"), coming to at most 1000 px either way at the font's size"#

    /// The spacing the members ask for (none when both are absent), or nil after recording each problem. Rule (Blink's
    /// computed value): an em is the font size times the number, in double, then a float, as are px.
    static func read(letter: JSONValue?, word: JSONValue?, fontSize: Double?, _ problems: inout Problems) -> TextSpacing? {
        let before = problems.count
        let letterPx = letter.flatMap { px($0, fontSize: fontSize, &problems) } ?? 0
        let wordPx = word.flatMap { px($0, fontSize: fontSize, &problems) } ?? 0
        guard problems.count == before else { return nil }
        return TextSpacing(letter: letterPx, word: wordPx)
    }

    /// One member in px (nil with a problem, or when the font size is unknown: the font's own problem says why).
    static func px(_ value: JSONValue, fontSize: Double?, _ problems: inout Problems) -> Double? {
        if value.string == "normal" { return 0 }
        guard let given = value.cssDimension(
            &problems, numberUnit: "px", units: [("px", TextLimits.spacings), ("em", TextLimits.spacingEms)], expected: expected)
        else { return nil }
        guard given.unit == "em" else { return Double(Float(given.value)) }
        guard let fontSize else { return nil }
        let px = Double(Float(given.value * fontSize))
        guard TextLimits.spacings.contains(px) else {
            problems.add(at: value, "must come to at most 1000 px either way at the font's size")
            return nil
        }
        return px
    }
}

/// The CSS syntax of the font descriptors and properties a request may give as text (CSS Fonts 4): each reader
/// returns the value, or why the text is not that syntax.
public enum FontDescriptorSyntax {
    /// Rule: at most this many comma-separated entries in a settings list or unicode-range.
    public static let maxEntries = 256

    /// `font-weight` descriptor: `auto` (nil: left out), `normal`, `bold`, a number 1–1000, or two of them.
    public static func weightRange(_ text: String) -> Result<SelectionRange?, FontSyntaxMistake> {
        let words = tokens(text)
        if words == ["auto"] { return .success(nil) }
        guard (1...2).contains(words.count) else { return .failure(FontSyntaxMistake("must be auto, normal, bold, or one or two numbers from 1 to 1000")) }
        var values: [Double] = []
        for word in words {
            switch word {
            case "normal": values.append(400)
            case "bold": values.append(700)
            default:
                guard let number = Double(word), number.isFinite, number >= 1, number <= 1000 else {
                    return .failure(FontSyntaxMistake("must be auto, normal, bold, or one or two numbers from 1 to 1000"))
                }
                values.append(number)
            }
        }
        return .success(SelectionRange(values[0], values.last ?? values[0]))
    }

    /// `font-style` descriptor: `auto` (nil), `normal` (0°), `italic` or `oblique` (14°), `oblique <angle>` or
    /// `oblique <angle> <angle>` (from -90deg to 90deg).
    public static func slopeRange(_ text: String) -> Result<SelectionRange?, FontSyntaxMistake> {
        let words = tokens(text)
        let message = "must be auto, normal, italic, oblique, or oblique with one or two angles from -90deg to 90deg"
        switch words.first {
        case "auto" where words.count == 1: return .success(nil)
        case "normal" where words.count == 1: return .success(SelectionRange(0))
        case "italic" where words.count == 1: return .success(SelectionRange(FontSelection.italicSlope))
        case "oblique" where words.count == 1: return .success(SelectionRange(FontSelection.italicSlope))
        case "oblique" where words.count <= 3:
            let angles = words.dropFirst().map(angle)
            guard angles.allSatisfy({ $0 != nil }) else { return .failure(FontSyntaxMistake(message)) }
            let values = angles.compactMap { $0 }
            return .success(SelectionRange(values[0], values.last ?? values[0]))
        default: return .failure(FontSyntaxMistake(message))
        }
    }

    /// `font-style` property: `normal`, `italic`, `oblique` or `oblique <angle>`: the style installed faces are
    /// matched with and the slope declared faces are.
    public static func style(_ text: String) -> Result<(FontStyle, Double), FontSyntaxMistake> {
        let words = tokens(text)
        switch words.first {
        case "normal" where words.count == 1: return .success((.normal, 0))
        case "italic" where words.count == 1: return .success((.italic, FontSelection.italicSlope))
        case "oblique" where words.count == 1: return .success((.oblique, FontSelection.italicSlope))
        case "oblique" where words.count == 2:
            guard let slope = angle(words[1]) else { break }
            return .success((slope == 0 ? .normal : .oblique, slope))
        default: break
        }
        return .failure(FontSyntaxMistake("must be normal, italic, oblique, or oblique with an angle from -90deg to 90deg"))
    }

    /// An angle in deg, grad, rad or turn (0 alone too), as degrees from -90 to 90; nil otherwise.
    static func angle(_ word: String) -> Double? {
        if word == "0" { return 0 }
        for (unit, degrees) in [("deg", 1.0), ("grad", 0.9), ("rad", 180 / Double.pi), ("turn", 360.0)] where word.hasSuffix(unit) {
            guard let number = Double(word.dropLast(unit.count)), number.isFinite else { return nil }
            let value = number * degrees
            return (-90...90).contains(value) ? value : nil
        }
        return nil
    }

    static let stretchKeywords: [String: Double] = [
        "ultra-condensed": 50, "extra-condensed": 62.5, "condensed": 75, "semi-condensed": 87.5, "normal": 100,
        "semi-expanded": 112.5, "expanded": 125, "extra-expanded": 150, "ultra-expanded": 200,
    ]

    /// A `font-stretch` keyword or a percentage greater than 0 (at most 1000%).
    public static func stretch(_ word: String) -> Double? {
        if let keyword = stretchKeywords[word] { return keyword }
        guard word.hasSuffix("%"), let number = Double(word.dropLast()), number.isFinite, number > 0, number <= 1000 else { return nil }
        return number
    }

    /// `font-stretch` descriptor: `auto` (nil), a keyword or percentage, or two of them.
    public static func widthRange(_ text: String) -> Result<SelectionRange?, FontSyntaxMistake> {
        let words = tokens(text)
        if words == ["auto"] { return .success(nil) }
        let values = words.map(stretch)
        guard (1...2).contains(words.count), values.allSatisfy({ $0 != nil }) else {
            return .failure(FontSyntaxMistake("must be auto, a font-stretch keyword or percentage, or two of them"))
        }
        let found = values.compactMap { $0 }
        return .success(SelectionRange(found[0], found.last ?? found[0]))
    }

    /// `unicode-range`: comma-separated `U+` code points, ranges (`U+0-7F`) or wildcards (`U+4??`).
    public static func unicodeRange(_ text: String) -> Result<UnicodeRangeSet, FontSyntaxMistake> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxEntries else { return .failure(FontSyntaxMistake("must have at most \(maxEntries) ranges")) }
        var ranges: [ClosedRange<UInt32>] = []
        for part in parts {
            let word = String(part).trimmingSpaces
            guard let range = codePoints(word) else {
                return .failure(FontSyntaxMistake("must be comma-separated U+ code points, ranges (U+0-7F) or wildcards (U+4??) up to U+10FFFF"))
            }
            ranges.append(range)
        }
        return .success(UnicodeRangeSet(ranges))
    }

    static func codePoints(_ word: String) -> ClosedRange<UInt32>? {
        let upper = FontFamilyList.asciiUppercased(word)
        guard upper.hasPrefix("U+") else { return nil }
        let body = upper.dropFirst(2)
        let ends = body.split(separator: "-", omittingEmptySubsequences: false)
        func hex(_ digits: Substring) -> UInt32? {
            guard (1...6).contains(digits.count) else { return nil }
            return UInt32(digits, radix: 16)
        }
        if ends.count == 2 {
            guard let low = hex(ends[0]), let high = hex(ends[1]), low <= high, high <= 0x10FFFF else { return nil }
            return low...high
        }
        guard ends.count == 1, (1...6).contains(body.count) else { return nil }
        let wild = body.reversed().prefix { $0 == "?" }.count
        let fixed = body.dropLast(wild)
        guard !fixed.contains("?") else { return nil }
        let base = fixed.isEmpty ? 0 : hex(fixed)
        guard let base else { return nil }
        let low = base << (4 * UInt32(wild)), high = low | ((1 << (4 * UInt32(wild))) - 1)
        guard low <= 0x10FFFF else { return nil }
        return low...min(high, 0x10FFFF)
    }

    /// `font-feature-settings`: `normal` (none), or comma-separated quoted four-letter tags, each with an integer
    /// 0 or more, `on` (1) or `off` (0); a tag alone is 1.
    public static func featureSettings(_ text: String) -> Result<[FontSetting], FontSyntaxMistake> {
        settings(text, what: "a quoted four-character tag, optionally followed by on, off or an integer from 0") { word in
            guard let word else { return 1 }
            if word == "on" { return 1 }
            if word == "off" { return 0 }
            guard let value = Int(word), value >= 0, value <= 65535 else { return nil }
            return Double(value)
        }
    }

    /// `font-variation-settings`: `normal` (none), or comma-separated quoted four-letter axis tags, each followed by
    /// a number.
    public static func variationSettings(_ text: String) -> Result<[FontSetting], FontSyntaxMistake> {
        settings(text, what: "a quoted four-character axis tag followed by a number") { word in
            guard let word, let value = Double(word), value.isFinite, abs(value) <= 1e6 else { return nil }
            return value
        }
    }

    private static func settings(_ text: String, what: String, value: (String?) -> Double?) -> Result<[FontSetting], FontSyntaxMistake> {
        if text.trimmingSpaces == "normal" { return .success([]) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxEntries else { return .failure(FontSyntaxMistake("must have at most \(maxEntries) settings")) }
        var found: [FontSetting] = []
        for part in parts {
            var scalars = Substring(part).unicodeScalars[...]
            FontFamilyList.skipSpace(&scalars)
            guard let quote = scalars.first, quote == "\"" || quote == "'" else { return .failure(FontSyntaxMistake("each setting must be \(what)")) }
            scalars.removeFirst()
            var tag = String.UnicodeScalarView()
            while let scalar = scalars.first, scalar != quote {
                tag.append(scalar)
                scalars.removeFirst()
            }
            guard scalars.popFirst() == quote, let fontTag = FontTag(String(tag)) else {
                return .failure(FontSyntaxMistake("each setting must be \(what)"))
            }
            let rest = String(String.UnicodeScalarView(scalars)).trimmingSpaces
            guard let number = value(rest.isEmpty ? nil : rest) else { return .failure(FontSyntaxMistake("each setting must be \(what)")) }
            found.append(FontSetting(fontTag, number))
        }
        return .success(found)
    }

    /// The text split at CSS whitespace, each word ASCII-lowercased (keywords are case-insensitive).
    static func tokens(_ text: String) -> [String] {
        text.unicodeScalars.split(whereSeparator: FontFamilyList.isSpace).map { FontFamilyList.asciiLowercased(String($0)) }
    }
}

extension String {
    /// Without CSS whitespace at either end.
    var trimmingSpaces: String {
        var scalars = unicodeScalars[...]
        while let first = scalars.first, FontFamilyList.isSpace(first) { scalars.removeFirst() }
        while let last = scalars.last, FontFamilyList.isSpace(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

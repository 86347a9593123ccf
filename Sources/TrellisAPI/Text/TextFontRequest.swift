import TrellisJSON
import TrellisText

/// The `font` object of a measuring request: `{family, size, weight?, style?}`.
enum TextFontRequest {
    /// The members of `font`.
    enum Member: Int, JSONMember {
        case family, size, weight, style
        static let keys = JSONKeys(Member.self)
    }

    /// The resolved font, or nil after recording every problem (with its pointer).
    static func read(_ value: JSONValue, _ fonts: FontCollection, _ problems: inout Problems) -> TextFont? {
        guard value.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = value.fields(Member.self)
        let familyValue = members.required(Member.family, &problems)
        let family = familyValue?.text(&problems)
        let size = members.required(Member.size, &problems)?.number(&problems, TextLimits.sizes)
        let weight = members.optional(Member.weight)?.integer(&problems, min: TextLimits.weights.lowerBound, max: TextLimits.weights.upperBound)
        let style = members.optional(Member.style)?.oneOf(FontStyle.self, &problems)
        guard let familyValue, let family else { return nil }
        var faces: [FontFace] = []
        if family.utf8.count > TextLimits.maxFamilyBytes {
            problems.add(at: familyValue, "must be at most \(TextLimits.maxFamilyBytes) bytes")
        } else {
            switch fonts.resolve(family: family, weight: weight ?? 400, style: style ?? .normal) {
            case .success(let matched): faces = matched
            case .failure(.mistake(let mistake)):
                problems.add(at: familyValue, "is not a CSS font-family list: " + describe(mistake))
            case .failure(.unknown(let unknown)):
                let names = unknown.names.map { "\"\($0)\"" }.joined(separator: ", ")
                let available = fonts.familyNames.map { "\"\($0)\"" }.joined(separator: ", ")
                problems.add(
                    at: familyValue,
                    "names \(unknown.names.count == 1 ? "a family" : "families") Trellis has no font for: \(names); "
                        + "available: \(available), and the generic names sans-serif, serif, monospace")
            }
        }
        guard problems.count == before, let size else { return nil }
        return TextFont(faces: faces, size: size)
    }

    static func describe(_ mistake: FontFamilyList.Mistake) -> String {
        switch mistake {
        case .emptyName: "a name is empty (two commas in a row, or a comma at an end)"
        case .unclosedQuote: "a quoted name is not closed"
        case .textAfterQuote: "a quote is misplaced (text after a quoted name, or a quote inside an unquoted name)"
        }
    }

    /// A text as scalars' worth of problems: more than the limit of scalars is recorded.
    static func readText(_ value: JSONValue, _ problems: inout Problems) -> String? {
        guard checkText(value, &problems) else { return nil }
        return value.string
    }

    /// Whether `value` is a text within the limit of scalars (recording why not), without making a String.
    static func checkText(_ value: JSONValue, _ problems: inout Problems) -> Bool {
        guard value.kind == .string else {
            problems.add(at: value, "must be a string")
            return false
        }
        let scalars = value.withStringBytes { bytes in
            // UTF-8 is at least one byte per scalar; otherwise count the bytes that start a scalar.
            bytes.count <= TextLimits.maxScalars ? bytes.count : bytes.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
        }
        guard scalars <= TextLimits.maxScalars else {
            problems.add(at: value, "must have at most \(TextLimits.maxScalars) Unicode scalars")
            return false
        }
        return true
    }

    /// The request's `texts` (nil: absent, its problem recorded already): an array of at most TextLimits.maxTexts
    /// texts, each read as `readText` does.
    static func readTexts(_ list: JSONValue?, _ problems: inout Problems) -> [(value: JSONValue, text: String)] {
        var texts: [(value: JSONValue, text: String)] = []
        if let list, let elements = list.array(&problems, maxCount: TextLimits.maxTexts) {
            texts.reserveCapacity(list.count)
            for element in elements {
                if let text = readText(element, &problems) { texts.append((element, text)) }
            }
        }
        return texts
    }

    /// `U+05E9`: four or more uppercase hex digits.
    static func codePoint(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The `font` member of an answer.
    static func write(_ font: TextFont, to json: inout JSONWriter) {
        let metrics = font.lineMetrics
        json.beginObject()
        json.key("size"); json.number(font.size)
        json.key("ascent"); json.number(metrics.ascent)
        json.key("descent"); json.number(metrics.descent)
        json.key("lineGap"); json.number(metrics.lineGap)
        json.key("lineHeight"); json.number(metrics.lineHeight)
        json.endObject()
    }
}

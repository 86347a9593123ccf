import TrellisJSON
import TrellisText

/// The `fontFaces` of a text request: `@font-face` rules over stored fonts, `{family, src, index?, weight?, style?,
/// stretch?, unicodeRange?, featureSettings?, variationSettings?}`, the descriptors in CSS syntax.
enum FontFacesRequest {
    enum Member: Int, JSONMember {
        case family, src, index, weight, style, stretch, unicodeRange, featureSettings, variationSettings
        static let keys = JSONKeys(Member.self)
    }

    /// The rules in order, or nil after recording every problem (with its pointer). A `src` that names no stored
    /// font is recorded at the `src` and gives the problems the type `ProblemTypes.fontNotStored`.
    static func read(_ list: JSONValue, _ library: FontLibrary, _ problems: inout Problems) -> [FontFaceRule]? {
        guard let elements = list.array(&problems, maxCount: FontLimits.maxFontFaces) else { return nil }
        let before = problems.count
        var rules: [FontFaceRule] = []
        rules.reserveCapacity(list.count)
        for element in elements {
            if let rule = readRule(element, library, &problems) { rules.append(rule) }
        }
        return problems.count == before ? rules : nil
    }

    private static func readRule(_ element: JSONValue, _ library: FontLibrary, _ problems: inout Problems) -> FontFaceRule? {
        guard element.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = element.fields(Member.self)
        let family = members.required(Member.family, &problems).flatMap { value -> String? in
            guard let text = bounded(value, FontLimits.maxFamilyBytes, &problems) else { return nil }
            guard text.unicodeScalars.contains(where: { !" \t\n\r\u{0C}".unicodeScalars.contains($0) }) else {
                problems.add(at: value, "must name a family")
                return nil
            }
            return text
        }
        let index = members.optional(Member.index)?.integer(&problems, min: 0, max: StoredFont.maxFaces - 1) ?? 0
        var face: FontFace?
        if let src = members.required(Member.src, &problems), let text = src.text(&problems) {
            if let id = FontID(text) {
                if let font = library.store.font(id) {
                    if index < font.faces.count {
                        face = font.faces[index]
                    } else if let indexValue = members.optional(Member.index) {
                        problems.add(at: indexValue, "must be less than \(font.faces.count), the number of faces in \(text)")
                    }
                } else {
                    problems.add(
                        at: src, "names a font that is not stored here: upload it (PUT /v1/fonts/\(text) with the file as the body), "
                            + "then send this request again")
                    problems.type = ProblemTypes.fontNotStored
                }
            } else {
                problems.add(at: src, "must be a font id: sha256- and the 64 lowercase hex digits of the SHA-256 of the font file")
            }
        }
        var capabilities = SelectionCapabilities()
        if let range = descriptor(members.optional(Member.weight), FontDescriptorSyntax.weightRange, &problems) ?? nil {
            capabilities.weight = range
        }
        if let range = descriptor(members.optional(Member.style), FontDescriptorSyntax.slopeRange, &problems) ?? nil {
            capabilities.slope = range
        }
        if let range = descriptor(members.optional(Member.stretch), FontDescriptorSyntax.widthRange, &problems) ?? nil {
            capabilities.width = range
        }
        let unicodeRange = descriptor(members.optional(Member.unicodeRange), FontDescriptorSyntax.unicodeRange, &problems)
        let features = descriptor(members.optional(Member.featureSettings), FontDescriptorSyntax.featureSettings, &problems)
        let variations = descriptor(members.optional(Member.variationSettings), FontDescriptorSyntax.variationSettings, &problems)
        guard problems.count == before, let family, let face else { return nil }
        return FontFaceRule(
            family: family, face: face, capabilities: capabilities, unicodeRange: unicodeRange, features: features ?? [],
            variations: variations ?? [])
    }

    /// A text of at most `maxBytes` bytes.
    static func bounded(_ value: JSONValue, _ maxBytes: Int, _ problems: inout Problems) -> String? {
        guard let text = value.text(&problems) else { return nil }
        guard text.utf8.count <= maxBytes else {
            problems.add(at: value, "must be at most \(maxBytes) bytes")
            return nil
        }
        return text
    }

    /// A descriptor read from its CSS text, or its mistake recorded (nil when absent or wrong).
    static func descriptor<T>(
        _ value: JSONValue?, _ parse: (String) -> Result<T, FontSyntaxMistake>, _ problems: inout Problems
    ) -> T? {
        guard let value, let text = bounded(value, FontLimits.maxDescriptorBytes, &problems) else { return nil }
        switch parse(text) {
        case .success(let parsed): return parsed
        case .failure(let mistake):
            problems.add(at: value, mistake.message)
            return nil
        }
    }
}

import TrellisJSON
import TrellisText

/// The `font` object of a measuring request: `{family, size, weight?, style?, stretch?, featureSettings?,
/// variationSettings?, opticalSizing?}`, with the request's `fontFaces` (declared `@font-face` rules).
enum TextFontRequest {
    /// The members of `font`.
    enum Member: Int, JSONMember {
        case family, size, weight, style, stretch, featureSettings, variationSettings, opticalSizing
        static let keys = JSONKeys(Member.self)
    }

    /// The resolved font, or nil after recording every problem (with its pointer). `faces` is the request's
    /// `fontFaces` member, when it has one.
    static func read(
        _ value: JSONValue, faces facesValue: JSONValue? = nil, _ context: FeatureContext, _ problems: inout Problems
    ) -> TextFont? {
        guard value.expectObject(&problems) else {
            if let facesValue { _ = FontFacesRequest.read(facesValue, context.fontLibrary, &problems) }
            return nil
        }
        let before = problems.count
        let members = value.fields(Member.self)
        let familyValue = members.required(Member.family, &problems)
        let family = familyValue?.text(&problems)
        let size = members.required(Member.size, &problems)?.number(&problems, TextLimits.sizes)
        let weight = members.optional(Member.weight)?.integer(&problems, min: TextLimits.weights.lowerBound, max: TextLimits.weights.upperBound)
        let style = members.optional(Member.style)?.oneOf(FontStyle.self, &problems)
        let stretch = members.optional(Member.stretch).flatMap { readStretch($0, &problems) }
        let features = FontFacesRequest.descriptor(members.optional(Member.featureSettings), FontDescriptorSyntax.featureSettings, &problems)
        let variations = FontFacesRequest.descriptor(
            members.optional(Member.variationSettings), FontDescriptorSyntax.variationSettings, &problems)
        let opticalSizing = members.optional(Member.opticalSizing)?.oneOf(OpticalSizing.self, &problems)
        let properties = FontProperties(
            size: size ?? 16, weight: Double(weight ?? 400), width: stretch ?? 100, style: style ?? .normal,
            features: features ?? [], variations: variations ?? [], opticalSizing: opticalSizing != OpticalSizing.none)
        // Rule: declared faces read before from the same rules, family list and properties resolve as they did then,
        // while the store keeps every font the rules name (it forgets the resolution when it evicts one of them).
        var remembering: DeclaredFacesKey?
        if let facesValue, problems.count == before, let family, let size, family.utf8.count <= TextLimits.maxFamilyBytes,
            let declaration = FontFacesRequest.declarationKey(facesValue, maxBytes: FontStore.maxRememberedBytes)
        {
            let key = DeclaredFacesKey(declaration: declaration, family: family, properties: properties)
            if let resolved = context.fontLibrary.store.declaredFaces(key) {
                return TextFont(faces: resolved.faces, settings: resolved.settings, size: size, primary: resolved.primary)?
                    .withStandard(context.fonts.standardFace(weight: weight ?? 400, style: style ?? .normal))
            }
            remembering = key
        }
        let facesBefore = problems.count
        var stored: [StoredFont] = []
        let rules = facesValue.flatMap { FontFacesRequest.read($0, context.fontLibrary, &problems, fonts: &stored) } ?? []
        // Rule: with a rule that could not be read (a font not stored), the families it declares are unknown here:
        // the list is not resolved, so that only the rule's own problem is listed.
        guard problems.count == facesBefore else { return nil }
        guard let familyValue, let family else { return nil }
        guard family.utf8.count <= TextLimits.maxFamilyBytes else {
            problems.add(at: familyValue, "must be at most \(TextLimits.maxFamilyBytes) bytes")
            return nil
        }
        // The family list is checked even when other members have problems, so that every problem is listed.
        var font: TextFont?
        let plain = rules.isEmpty && stretch == nil && (features ?? []).isEmpty && (variations ?? []).isEmpty
            && opticalSizing == nil
        if plain {
            // The family lists resolved before are remembered (the request declares no face and no setting).
            switch context.fonts.resolve(family: family, weight: weight ?? 400, style: style ?? .normal) {
            case .success(let matched): font = size.flatMap { TextFont(faces: matched, size: $0) }
            case .failure(.mistake(let mistake)): record(mistake, at: familyValue, &problems)
            case .failure(.unknown(let unknown)): record(unknown, at: familyValue, context.fonts, rules, &problems)
            }
        } else {
            switch FontFamilyList.parse(family) {
            case .failure(let mistake):
                record(mistake, at: familyValue, &problems)
            case .success(let entries):
                switch context.fonts.resolve(entries, properties: properties, declared: rules) {
                case .success(let resolved):
                    font = size.flatMap {
                        TextFont(faces: resolved.faces, settings: resolved.settings, size: $0, primary: resolved.primary)
                    }
                    if let remembering, font != nil, problems.count == before {
                        context.fontLibrary.store.remember(remembering, resolved, fonts: stored)
                    }
                case .failure(let unknown):
                    record(unknown, at: familyValue, context.fonts, rules, &problems)
                }
            }
        }
        guard problems.count == before else { return nil }
        return font?.withStandard(context.fonts.standardFace(weight: weight ?? 400, style: style ?? .normal))
    }

    /// `stretch`: a font-stretch keyword or percentage as CSS writes it, or a number of percent.
    static func readStretch(_ value: JSONValue, _ problems: inout Problems) -> Double? {
        if let number = value.double, value.kind != .string {
            guard number > 0, number <= 1000 else {
                problems.add(at: value, "must be a percentage greater than 0 and at most 1000")
                return nil
            }
            return number
        }
        guard let text = value.string, let percent = FontDescriptorSyntax.stretch(FontFamilyList.asciiLowercased(text)) else {
            problems.add(at: value, "must be a font-stretch keyword (condensed, expanded, ...) or a percentage such as 87.5%")
            return nil
        }
        return percent
    }

    static func record(_ mistake: FontFamilyList.Mistake, at value: JSONValue, _ problems: inout Problems) {
        problems.add(at: value, "is not a CSS font-family list: " + describe(mistake))
    }

    static func record(
        _ unknown: UnknownFamilies, at value: JSONValue, _ fonts: FontCollection, _ rules: [FontFaceRule], _ problems: inout Problems
    ) {
        let names = unknown.names.map { "\"\($0)\"" }.joined(separator: ", ")
        var declared: [String] = []
        for rule in rules where !declared.contains(rule.family) { declared.append(rule.family) }
        let available = (declared + fonts.familyNames).map { "\"\($0)\"" }.joined(separator: ", ")
        let generics = FontFamilyList.GenericFamily.allCases.map(\.cssName).joined(separator: ", ")
        problems.add(
            at: value,
            "names \(unknown.names.count == 1 ? "a family" : "families") Trellis has no font for: \(names); "
                + "available: \(available), and the generic names \(generics)")
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

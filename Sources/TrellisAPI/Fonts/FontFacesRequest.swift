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
        var fonts: [StoredFont] = []
        return read(list, library, &problems, fonts: &fonts)
    }

    /// The rules, as `read` reads them, and in `fonts` the stored font each rule's `src` named, in order.
    static func read(
        _ list: JSONValue, _ library: FontLibrary, _ problems: inout Problems, fonts: inout [StoredFont]
    ) -> [FontFaceRule]? {
        guard let elements = list.array(&problems, maxCount: FontLimits.maxFontFaces) else { return nil }
        let before = problems.count
        var rules: [FontFaceRule] = []
        rules.reserveCapacity(list.count)
        fonts.reserveCapacity(list.count)
        for element in elements {
            if let rule = readRule(element, library, &problems, &fonts) { rules.append(rule) }
        }
        return problems.count == before ? rules : nil
    }

    /// Rule: the bytes that determine a `fontFaces` list exactly, so that what it resolved to can be remembered: per
    /// rule, each member's name and value as written, in order (strings as their UTF-8 with its length, numbers as
    /// their 64 bits, null), each token tagged; the same bytes are read as the same rules over the same stored fonts.
    /// nil (nothing remembered: the list is read as usual) for an empty list or one of another shape than rules of
    /// strings, numbers and nulls, or past `maxBytes` (a string that would pass it is not copied). One pass over the
    /// list, no more bytes than it has plus 14 per member.
    static func declarationKey(_ list: JSONValue, maxBytes: Int) -> [UInt8]? {
        guard list.kind == .array else { return nil }
        var key: [UInt8] = []
        key.reserveCapacity(min(maxBytes, 256))
        var rules = 0
        /// Appends a text with its length; false (nothing appended) when the key would pass `maxBytes`, so that no
        /// long string is copied.
        func appendText(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard key.count + 4 + bytes.count <= maxBytes else { return false }
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: bytes)
            return true
        }
        for element in list.elements {
            rules += 1
            guard rules <= FontLimits.maxFontFaces, element.kind == .object else { return nil }
            key.append(UInt8(ascii: "R"))
            for (name, value) in element.members {
                guard let nameBytes = name.stringBytes else { return nil }
                key.append(UInt8(ascii: "N"))
                guard appendText(nameBytes) else { return nil }
                switch value.kind {
                case .string:
                    guard let bytes = value.stringBytes else { return nil }
                    key.append(UInt8(ascii: "s"))
                    guard appendText(bytes) else { return nil }
                case .integer:
                    guard let integer = value.int64 else { return nil }
                    key.append(UInt8(ascii: "i"))
                    withUnsafeBytes(of: integer.littleEndian) { key.append(contentsOf: $0) }
                case .double:
                    guard let double = value.double else { return nil }
                    key.append(UInt8(ascii: "d"))
                    withUnsafeBytes(of: double.bitPattern.littleEndian) { key.append(contentsOf: $0) }
                case .null:
                    key.append(UInt8(ascii: "n"))
                case .object, .array, .bool:
                    return nil
                }
                guard key.count <= maxBytes else { return nil }
            }
        }
        return rules > 0 ? key : nil
    }

    private static func readRule(
        _ element: JSONValue, _ library: FontLibrary, _ problems: inout Problems, _ fonts: inout [StoredFont]
    ) -> FontFaceRule? {
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
                    fonts.append(font)
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

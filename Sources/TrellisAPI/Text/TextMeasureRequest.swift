import TrellisJSON
import TrellisText

/// The body of `POST /v1/text/measure`: `{font, fontFaces?, texts, letterSpacing?, wordSpacing?}`.
struct TextMeasureRequest: FeatureRequest {
    var font: TextFont
    var texts: [(value: JSONValue, text: String)]

    /// The body's members.
    enum Member: Int, JSONMember {
        case font, fontFaces, texts
        case letterSpacing, wordSpacing
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
        let spacing = TextSpacingRequest.read(
            letter: members.optional(Member.letterSpacing), word: members.optional(Member.wordSpacing), fontSize: font?.size, &problems)
        guard problems.count == before, let font, let spacing else { return nil }
        self.font = spacing.isNone ? font : font.spaced(spacing)
        self.texts = texts
    }
}

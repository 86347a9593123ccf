import TrellisJSON
import TrellisText

/// The body of `POST /v1/text/measure`: `{font, fontFaces?, texts}`.
struct TextMeasureRequest: FeatureRequest {
    var font: TextFont
    var texts: [(value: JSONValue, text: String)]

    /// The body's members.
    enum Member: Int, JSONMember {
        case font, fontFaces, texts
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
        guard problems.count == before, let font else { return nil }
        self.font = font
        self.texts = texts
    }
}

import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/text/measure`: the widths and line height of texts in one font, as Chromium lays them out.
enum TextMeasureEndpoint: Endpoint {
    static let path = "/v1/text/measure"
    static let workingMemoryPerByte = 4

    /// `{font, texts}`.
    struct Request: FeatureRequest {
        var font: TextFont
        var texts: [(value: JSONValue, text: String)]

        /// The body's members.
        enum Member: Int, JSONMember {
            case font, texts
            static let keys = JSONKeys(Member.self)
        }

        init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
            guard body.expectObject(&problems) else { return nil }
            let before = problems.count
            let members = body.fields(Member.self)
            let font = members.required(Member.font, &problems).flatMap { TextFontRequest.read($0, context.fonts, &problems) }
            let texts = TextFontRequest.readTexts(members.required(Member.texts, &problems), &problems)
            guard problems.count == before, let font else { return nil }
            self.font = font
            self.texts = texts
        }
    }

    static func respond(
        to request: Request, _ context: FeatureContext, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter
    ) {
        let output = TextMeasure.compute(
            TextMeasureInput(font: request.font, texts: request.texts.map(\.text)), cache: context.measureCache, meter: &meter)
        var widths: [Double] = []
        widths.reserveCapacity(output.widths.count)
        for (measured, (value, _)) in zip(output.widths, request.texts) {
            switch measured {
            case .success(let width): widths.append(width)
            case .failure(let refusal): TextFontRequest.record(refusal, at: value, &problems)
            }
        }
        guard problems.isEmpty else { return }
        let height = output.lineHeight
        json.reserveCapacity(160 + widths.count * 40)
        json.beginObject()
        json.key("font")
        TextFontRequest.write(request.font, to: &json)
        json.key("texts")
        json.beginArray()
        for width in widths {
            json.beginObject()
            json.key("width"); json.number(width)
            json.key("height"); json.number(height)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }
}

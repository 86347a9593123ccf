import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/text/measure`: the widths and line height of texts in one font, as Chromium lays them out.
enum TextMeasureEndpoint: TextEndpoint {
    static let path = "/v1/text/measure"
    static let workingMemoryPerByte = 4

    struct Request {
        var font: TextFont
        var texts: [(value: JSONValue, text: String)]
    }

    static func read(_ body: JSONValue, _ fonts: TextFonts, _ problems: inout Problems) throws(ProblemDetails) -> Request? {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let collection = try fonts.loaded()
        let font = body.required("font", &problems).flatMap { TextFontRequest.read($0, collection, &problems) }
        let texts = TextFontRequest.readTexts(body, &problems)
        guard problems.count == before, let font else { return nil }
        return Request(font: font, texts: texts)
    }

    static func respond(
        to request: Request, _ fonts: TextFonts, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter
    ) {
        let measurer = TextMeasurer(font: request.font, cache: fonts.cache)
        var widths: [Double] = []
        widths.reserveCapacity(request.texts.count)
        for (value, text) in request.texts where !meter.isStopped {
            switch measurer.width(of: text, meter: &meter) {
            case .success(let width): widths.append(width)
            case .failure(let refusal): TextFontRequest.record(refusal, at: value, &problems)
            }
        }
        guard problems.isEmpty else { return }
        let height = request.font.lineMetrics.lineHeight
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

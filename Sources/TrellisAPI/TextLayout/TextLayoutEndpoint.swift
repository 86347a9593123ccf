import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/text/layout`: paragraphs wrapped, clamped or cut with an ellipsis as Chromium lays them
/// out, each shaped once and laid out at every width asked for.
enum TextLayoutEndpoint: TextEndpoint {
    static let path = "/v1/text/layout"
    static let workingMemoryPerByte = 12
    static let sizeAdvice: String? = "send fewer texts or widths, or wider boxes (every line is an object in the answer)."

    static func read(_ body: JSONValue, _ fonts: TextFonts, _ problems: inout Problems) throws(ProblemDetails) -> TextLayoutRequest? {
        try TextLayoutRequest.read(body, fonts, &problems)
    }

    /// A step per scalar shaped and per scalar laid out at each width (and for the content widths) on `meter`.
    static func respond(
        to request: consuming TextLayoutRequest, _ fonts: TextFonts, _ problems: inout Problems, _ json: inout JSONWriter,
        _ meter: inout WorkMeter
    ) {
        let shaper = ParagraphShaper(font: request.font)
        json.reserveCapacity(160 + request.texts.count * request.widths.count * 160)
        json.beginObject()
        json.key("font")
        TextFontRequest.write(request.font, to: &json)
        json.key("texts")
        json.beginArray()
        for (value, text) in request.texts {
            // Past the answer's limit nothing more is written: stop computing too.
            if json.failure != nil { break }
            let scalars = text.unicodeScalars.count
            guard meter.advance(scalars * (1 + request.widths.count + (request.contentWidths ? 1 : 0))) else { break }
            let paragraph: ShapedParagraph
            switch shaper.shape(text, whiteSpace: request.style.whiteSpace) {
            case .success(let shaped): paragraph = shaped
            case .failure(let refusal):
                TextFontRequest.record(refusal, at: value, &problems)
                continue
            }
            guard problems.isEmpty else { continue }
            json.beginObject()
            if request.perWidth {
                json.key("layouts")
                json.beginArray()
            }
            for width in request.widths {
                guard let layout = shaper.layout(paragraph, width: width, style: request.style) else {
                    TextFontRequest.record(.outOfMemory, at: value, &problems)
                    break
                }
                if request.perWidth { json.beginObject() }
                TextLayoutResponse.writeMembers(layout, to: &json)
                if request.perWidth { json.endObject() }
            }
            if request.perWidth { json.endArray() }
            if request.contentWidths {
                guard let widths = shaper.contentWidths(paragraph, style: request.style) else {
                    TextFontRequest.record(.outOfMemory, at: value, &problems)
                    continue
                }
                json.key("minContentWidth"); json.number(widths.min)
                json.key("maxContentWidth"); json.number(widths.max)
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }
}

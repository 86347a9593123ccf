import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/text/layout`: paragraphs wrapped, clamped or cut with an ellipsis as Chromium lays them
/// out, each shaped once and laid out at every width asked for.
enum TextLayoutEndpoint: Endpoint {
    static let path = "/v1/text/layout"
    static let workingMemoryPerByte = 12
    static let sizeAdvice: String? = "send fewer texts or widths, or wider boxes (every line is an object in the answer)."

    static func respond(to request: consuming TextLayoutRequest, _ call: inout EndpointCall) {
        call.json.reserveCapacity(160 + request.texts.count * request.widths.count * 160)
        TextLayoutResponse.begin(request.font, to: &call.json)
        let input = TextLayoutInput(
            font: request.font, texts: request.texts.map(\.text), widths: request.widths, style: request.style,
            contentWidths: request.contentWidths)
        let perWidth = request.perWidth
        TextLayout.compute(input, meter: &call.meter) { index, result in
            switch result {
            case .success(let output):
                guard call.problems.isEmpty else { break }
                TextLayoutResponse.write(output, perWidth: perWidth, to: &call.json)
            case .failure(let refusal):
                call.problems.add(refusal, at: request.texts[index].value)
            }
            // Past the answer's limit nothing more is written: stop computing too.
            return call.json.failure == nil
        }
        TextLayoutResponse.end(to: &call.json)
    }
}

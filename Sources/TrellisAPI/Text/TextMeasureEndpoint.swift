import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/text/measure`: the widths and line height of texts in one font, as Chromium lays them out.
enum TextMeasureEndpoint: Endpoint {
    static let path = "/v1/text/measure"
    static let workingMemoryPerByte = 4

    static func respond(to request: TextMeasureRequest, _ call: inout EndpointCall) {
        let output = TextMeasure.compute(
            TextMeasureInput(font: request.font, texts: request.texts.map(\.text)), cache: call.context.measureCache, meter: &call.meter)
        var widths: [Double] = []
        widths.reserveCapacity(output.widths.count)
        for (measured, (value, _)) in zip(output.widths, request.texts) {
            switch measured {
            case .success(let width): widths.append(width)
            case .failure(let refusal): call.problems.add(refusal, at: value)
            }
        }
        guard call.problems.isEmpty else { return }
        TextMeasureResponse.write(widths, lineHeight: output.lineHeight, font: request.font, to: &call.json)
    }
}

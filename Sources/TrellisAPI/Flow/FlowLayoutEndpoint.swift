import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/flow/layout`: the positions of wrapping tags in a container (tags given as sizes or as text).
enum FlowLayoutEndpoint: Endpoint {
    static let path = "/v1/flow/layout"
    static let workingMemoryPerByte = 12

    /// One compute per request: the flow's (`FlowLayout.compute`) when every item and the chip are sizes, else the
    /// flow of labels' (`FlowLabels.compute`, with the fonts), whose refusals are recorded at their texts.
    static func respond(to request: consuming FlowLayoutRequest, _ call: inout EndpointCall) {
        switch request.layout {
        case .sizes(let input):
            FlowLayoutResponse.write(FlowLayout.compute(input), ids: request.ids, to: &call.json)
        case .labels(let input):
            let body = request.body
            let ids = request.ids
            let refusal = FlowLabels.compute(
                input, text: { body.value(at: Int($0.reference)).string ?? "" }, cache: call.context.measureCache, meter: &call.meter
            ) { output, paragraph in
                FlowLayoutResponse.write(output.layout, ids: ids, paragraph: paragraph, chipParagraph: output.chipParagraph, to: &call.json)
            }
            switch refusal {
            case .unmeasurable(let texts)?:
                for text in texts { call.problems.add(text.refusal, at: body.value(at: Int(text.text.reference))) }
            case .stopped?, nil:
                return
            }
        }
    }
}

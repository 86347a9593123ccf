import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/flow/layout`: the positions of wrapping tags in a container (tags given as sizes or as text).
enum FlowLayoutEndpoint: Endpoint {
    static let path = "/v1/flow/layout"
    static let workingMemoryPerByte = 12

    static func respond(to request: consuming FlowLayoutRequest, _ call: inout EndpointCall) {
        var request = request
        let result: FlowOutput
        var paragraphs: [Int: ParagraphLayout] = [:]
        if let labels = request.labels {
            // The measured sizes go into the request's items in place.
            guard let measured = labels.layout(&request.layout, &call, paragraphs: &paragraphs)
            else { return }
            result = measured
        } else {
            result = FlowLayout.compute(request.layout)
        }
        call.json.reserveCapacity(FlowLayoutResponse.estimatedSize(result, hasIDs: !request.ids.isEmpty))
        FlowLayoutResponse.write(result, ids: request.ids, paragraphs: paragraphs, to: &call.json)
    }
}

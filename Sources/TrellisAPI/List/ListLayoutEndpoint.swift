import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/list/layout`: every row's height and offset in a virtualized list of text rows, at each width,
/// with the rows a viewport shows and the scroll offset that keeps a row in place.
enum ListLayoutEndpoint: Endpoint {
    static let path = "/v1/list/layout"
    static let workingMemoryPerByte = 12
    static let sizeAdvice: String? = "send fewer rows or widths (every row is a number in four arrays per width)."

    static func respond(to request: consuming ListLayoutRequest, _ call: inout EndpointCall) {
        // A row is about 20 bytes per width: its height, offset, line count and truncation.
        call.json.reserveCapacity(64 + request.input.rows.count * request.input.widths.count * 20)
        ListLayoutResponse.begin(to: &call.json)
        let anchorAsked = request.anchorAsked
        ListLayout.compute(request.input, cache: call.context.shapingCache, lanes: call.context.lanes, meter: &call.meter) { result in
            switch result {
            case .success(let layout):
                guard call.problems.isEmpty else { break }
                ListLayoutResponse.write(layout, anchorAsked: anchorAsked, to: &call.json)
            case .failure(let refusal):
                // A paragraph's refusal at its text; the bounds' at the widths.
                if case .paragraph(let index, _) = refusal {
                    call.problems.add(refusal, at: request.paragraphValue(index))
                } else {
                    call.problems.add(refusal, at: request.widthsValue)
                }
            }
            // Past the answer's limit nothing more is written: stop computing too.
            return call.json.failure == nil
        }
        ListLayoutResponse.end(to: &call.json)
    }
}

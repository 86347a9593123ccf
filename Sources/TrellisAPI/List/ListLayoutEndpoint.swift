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
        // A kept list is laid out as the body it was sent in would be: its bounds, its working memory taken here and,
        // sent alone, its answer's bound.
        let store = call.context.listStore
        var working = 0
        if let kept = request.kept {
            working = kept.bodyBytes.multipliedReportingOverflow(by: workingMemoryPerByte).partialValue
            guard store.reserve(working) else {
                call.json.failForMemory()
                return
            }
            // Rule: the answer is bounded as the body that kept the list would be (alone; a batch's entry keeps its own).
            if let answerLimit = call.answerLimit { call.json.allow(upTo: answerLimit(kept.bodyBytes)) }
        }
        defer { store.release(working) }
        let bodyBytes = call.meter.inputBytes
        var meter = call.meter.measuring(inputBytes: request.kept?.bodyBytes ?? bodyBytes)
        defer { call.meter = meter.measuring(inputBytes: bodyBytes) }
        // A row is about 20 bytes per width: its height, offset, line count and truncation.
        call.json.reserveCapacity(64 + request.input.rows.count * request.input.widths.count * 20)
        ListLayoutResponse.begin(to: &call.json)
        let anchorAsked = request.anchorAsked
        let keeping = request.keys != nil
        var shaping: ListShaping?
        ListLayout.compute(request.input, cache: call.context.shapingCache, lanes: call.context.lanes, keeping: keeping, meter: &meter) { result in
            switch result {
            case .success(let layout):
                guard call.problems.isEmpty else { break }
                if keeping && shaping == nil { shaping = layout.shaping }
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
        // Rule for `keep`: a list laid out whole is kept (without its widths, scroll and anchor), and named; null when the
        // store cannot keep it. A list named is named again.
        var id = request.kept?.id
        if let keys = request.keys, let shaping, call.problems.isEmpty, call.json.failure == nil, !meter.isStopped {
            var input = request.input
            input.widths = []
            input.scroll = nil
            input.anchor = nil
            input.shaping = shaping
            id = store.keep(KeptList(input: input, keys: keys, bodyBytes: bodyBytes))
        }
        ListLayoutResponse.end(list: keeping || request.kept != nil ? .some(id) : .none, to: &call.json)
    }
}

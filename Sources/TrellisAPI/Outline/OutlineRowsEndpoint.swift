import TrellisCore
import TrellisJSON

/// `POST /v1/outline/rows`: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint: Endpoint {
    static let path = "/v1/outline/rows"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.rowsSizeAdvice

    static func respond(to request: OutlineRowsRequest, _ call: inout EndpointCall) {
        let selection = request.selection.flatMap { request.input.index(of: $0) }
        if let search = request.search {
            // Rule: with a search, the rows are the matches and their ancestors, opened; `expanded` is not used.
            let run = search.run(in: request.input, &call.problems, call.meter)
            guard call.problems.isEmpty, !run.meter.isStopped else {
                call.meter = run.meter
                return
            }
            let rows = OutlineRows.compute(OutlineRowsInput(
                tree: request.input.tree, selection: selection, matches: run.matches, offset: request.offset, limit: request.limit))
            var written: OutlineSearchRun? = run
            OutlineRowsResponse.write(rows, request, search: &written, to: &call.json)
            call.meter = written?.meter ?? call.meter
            return
        }
        let rows = OutlineRows.compute(OutlineRowsInput(
            tree: request.input.tree, selection: selection, expanded: request.expanded, offset: request.offset, limit: request.limit))
        OutlineRowsResponse.write(rows, request, to: &call.json)
    }
}

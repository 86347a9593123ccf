import TrellisCore
import TrellisJSON

/// `POST /v1/outline/rows`: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint: Endpoint {
    static let path = "/v1/outline/rows"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.rowsSizeAdvice

    static func respond(
        to request: OutlineRowsRequest, _ context: FeatureContext, _ problems: inout Problems, _ json: inout JSONWriter,
        _ meter: inout WorkMeter
    ) {
        let selection = request.selection.flatMap { request.input.index(of: $0) }
        if let search = request.search {
            // Rule: with a search, the rows are the matches and their ancestors, opened; `expanded` is not used.
            let run = search.run(in: request.input, &problems, meter)
            guard problems.isEmpty, !run.meter.isStopped else {
                meter = run.meter
                return
            }
            let rows = OutlineRows.compute(OutlineRowsInput(
                tree: request.input.tree, selection: selection, matches: run.matches, offset: request.offset, limit: request.limit))
            var written: OutlineSearchRun? = run
            OutlineRowsResponse.write(rows, request, search: &written, to: &json)
            meter = written?.meter ?? meter
            return
        }
        let rows = OutlineRows.compute(OutlineRowsInput(
            tree: request.input.tree, selection: selection, expanded: request.expanded, offset: request.offset, limit: request.limit))
        OutlineRowsResponse.write(rows, request, to: &json)
    }
}

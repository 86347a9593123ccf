import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/outline/rows`: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint: Endpoint {
    static let path = "/v1/outline/rows"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.rowsSizeAdvice

    static func respond(to request: OutlineRowsRequest, _ call: inout EndpointCall) {
        let selection = request.selection.flatMap { request.input.index(of: $0) }
        var shown = OutlineRowsInput.Shown.expanded(request.expanded)
        var meter = call.meter
        var written: OutlineSearchRun?
        if let search = request.search {
            // Rule: with a search, the rows are the matches and their ancestors, opened; `expanded` is not used.
            let run = search.run(in: request.input, &call.problems, call.meter)
            guard call.problems.isEmpty, !run.meter.isStopped else {
                call.meter = run.meter
                return
            }
            shown = .matches(run.matches)
            meter = run.meter
            written = run
        }
        let input = OutlineRowsInput(tree: request.input.tree, selection: selection, shown: shown, offset: request.offset, limit: request.limit)
        var layout: OutlineRowsLayoutOutput?
        let rows: OutlineRowsOutput
        if let heights = request.rowHeights {
            // Rule: with rowHeights, every visible row's label is laid out, for its height and offset.
            let labels = OutlineLabelReader(request.input, key: heights.labelKey)
            let result = OutlineRowsLayout.compute(
                OutlineRowsLayoutInput(
                    rows: input, font: heights.font, style: heights.style, width: heights.width, indent: heights.indent,
                    chrome: heights.chrome, gap: heights.gap, scroll: heights.scroll),
                label: labels.label(of:), cache: call.context.shapingCache, meter: &meter)
            for node in labels.tooLong {
                if let value = labels.value(of: node) {
                    call.problems.add(at: value, "must be at most \(OutlineLimits.maxLabelBytes) bytes of UTF-8 to be laid out")
                }
            }
            switch result {
            case .success(let made)?:
                layout = made
                rows = made.rows
            case .failure(let refused)?:
                call.problems.add(refused.refusal, at: labels.value(of: refused.node))
                call.meter = meter
                return
            case nil:
                call.meter = meter
                return
            }
            guard call.problems.isEmpty else {
                call.meter = meter
                return
            }
        } else {
            rows = OutlineRows.compute(input)
        }
        written?.meter = meter
        OutlineRowsResponse.write(rows, request, layout: layout, search: &written, to: &call.json)
        call.meter = written?.meter ?? meter
    }
}

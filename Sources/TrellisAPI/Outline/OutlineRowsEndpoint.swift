import TrellisCore
import TrellisJSON
import TrellisText

/// `POST /v1/outline/rows`: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint: Endpoint {
    static let path = "/v1/outline/rows"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.rowsSizeAdvice

    /// One compute per request: the rows of the `expanded` nodes, or (rule: with a search, the rows are the matches
    /// and their ancestors, opened; `expanded` is not used) the rows of the search, its labels read from the body;
    /// with `rowHeights`, the same rows with their labels laid out (TrellisText).
    static func respond(to request: OutlineRowsRequest, _ call: inout EndpointCall) {
        let input = request.input
        let selection = request.selection.flatMap { input.index(of: $0) }
        if let heights = request.rowHeights { return respond(to: request, heights, selection: selection, &call) }
        guard let search = request.search else {
            let rows = OutlineRows.compute(OutlineRowsInput(
                tree: input.tree, selection: selection, expanded: request.expanded, offset: request.offset, limit: request.limit))
            return OutlineRowsResponse.write(rows, request, to: &call.json)
        }
        let result = OutlineRows.compute(
            OutlineRowsSearchInput(tree: input.tree, selection: selection, search: search.search, offset: request.offset, limit: request.limit),
            labels: { search.label(of: $0, in: input) }, meter: &call.meter)
        switch result {
        case .success(let rows): OutlineRowsResponse.write(rows, request, to: &call.json)
        case .failure(let refusal): search.record(refusal, in: input, &call.problems)
        }
    }

    /// Rule: with rowHeights, every visible row's label is laid out, for its height and offset.
    private static func respond(
        to request: OutlineRowsRequest, _ heights: OutlineRowHeightsInput, selection: Int?, _ call: inout EndpointCall
    ) {
        let input = request.input
        let labels = OutlineLabelReader(input, key: heights.labelKey)
        let layout = OutlineRowsLayoutInput(
            rows: OutlineRowsInput(tree: input.tree, selection: selection, expanded: request.expanded, offset: request.offset, limit: request.limit),
            font: heights.font, style: heights.style, width: heights.width, indent: heights.indent, chrome: heights.chrome,
            gap: heights.gap, scroll: heights.scroll)
        let result: Result<OutlineRowsLayoutOutput, OutlineRowsLayoutRefusal>?
        if let search = request.search {
            result = OutlineRowsLayout.compute(
                layout, search: search.search, labels: { search.label(of: $0, in: input) }, label: labels.label(of:),
                cache: call.context.shapingCache, meter: &call.meter)
        } else {
            result = OutlineRowsLayout.compute(layout, label: labels.label(of:), cache: call.context.shapingCache, meter: &call.meter)?
                .mapError { .label($0) }
        }
        for node in labels.tooLong {
            if let value = labels.value(of: node) {
                call.problems.add(at: value, "must be at most \(OutlineLimits.maxLabelBytes) bytes of UTF-8 to be laid out")
            }
        }
        switch result {
        case .success(let made)?:
            guard call.problems.isEmpty else { return }
            OutlineRowsResponse.write(made.rows, request, layout: made, to: &call.json)
        case .failure(.label(let refused))?:
            call.problems.add(refused.refusal, at: labels.value(of: refused.node))
        case .failure(.search(let refusal))?:
            request.search?.record(refusal, in: input, &call.problems)
        case nil:
            return
        }
    }
}

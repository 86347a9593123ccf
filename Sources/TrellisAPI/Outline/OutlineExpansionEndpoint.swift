import TrellisCore
import TrellisJSON

/// `POST /v1/outline/expansion`: the nodes to expand so that every found selection is visible.
enum OutlineExpansionEndpoint: Endpoint {
    static let path = "/v1/outline/expansion"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.expansionSizeAdvice

    static func respond(to request: OutlineExpansionRequest, _ call: inout EndpointCall) {
        if let search = request.search {
            // The answer lists every match's ranges: kept while matching.
            var run = search.run(in: request.input, everyRange: true, &call.problems, call.meter)
            defer { call.meter = run.meter }
            guard call.problems.isEmpty, !run.meter.isStopped else { return }
            let expansion = OutlineSearchExpansion.compute(OutlineSearchExpansionInput(tree: request.input.tree, matches: run.matches))
            OutlineExpansionResponse.write(expansion, &run, request, to: &call.json)
            return
        }
        let expansion = OutlineExpansion.compute(OutlineExpansionInput(tree: request.input.tree, selections: request.indices))
        OutlineExpansionResponse.write(expansion, request, to: &call.json)
    }
}

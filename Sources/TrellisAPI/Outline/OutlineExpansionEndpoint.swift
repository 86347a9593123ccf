import TrellisCore
import TrellisJSON

/// `POST /v1/outline/expansion`: the nodes to expand so that every found selection is visible.
enum OutlineExpansionEndpoint: Endpoint {
    static let path = "/v1/outline/expansion"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.expansionSizeAdvice

    /// One compute per request: the selections' expansion, or the search's (every match with its ranges), its
    /// labels read from the body.
    static func respond(to request: OutlineExpansionRequest, _ call: inout EndpointCall) {
        let input = request.input
        guard let search = request.search else {
            let expansion = OutlineExpansion.compute(OutlineExpansionInput(tree: input.tree, selections: request.indices))
            return OutlineExpansionResponse.write(expansion, request, to: &call.json)
        }
        let result = OutlineSearchExpansion.compute(
            OutlineSearchExpansionInput(tree: input.tree, search: search.search), labels: { search.label(of: $0, in: input) },
            meter: &call.meter)
        switch result {
        case .success(let expansion): OutlineExpansionResponse.write(expansion, request, to: &call.json)
        case .failure(let refusal): search.record(refusal, in: input, &call.problems)
        }
    }
}

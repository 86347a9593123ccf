import TrellisCore
import TrellisJSON

/// `POST /v1/flow/layout`: the positions of wrapping tags in a container.
enum FlowEndpoint: Endpoint {
    static let path = "/v1/flow/layout"

    static func read(_ body: JSONValue, _ problems: inout Problems) -> FlowLayoutRequest? {
        FlowLayoutRequest.read(body, &problems)
    }

    static func respond(to request: FlowLayoutRequest, _ problems: inout Problems, _ json: inout JSONWriter) {
        let result = FlowLayout.compute(request.layout)
        json.reserveCapacity(FlowLayoutResponse.estimatedSize(result, hasIDs: !request.ids.isEmpty))
        FlowLayoutResponse.write(result, ids: request.ids, to: &json)
    }
}

import TrellisCore
import TrellisJSON

/// `POST /v1/outline/rows`: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint: Endpoint {
    static let path = "/v1/outline/rows"
    static let depthAdvice: String? = OutlineLimits.depthAdvice
    static let sizeAdvice: String? = OutlineLimits.rowsSizeAdvice

    static func read(_ body: JSONValue, _ problems: inout Problems) -> OutlineRowsRequest? {
        OutlineRowsRequest.read(body, &problems)
    }

    static func respond(to request: OutlineRowsRequest, _ problems: inout Problems, _ json: inout JSONWriter) {
        let rows = OutlineRows(
            tree: request.input.tree, selection: request.selection.flatMap { request.input.index(of: $0) },
            expanded: request.expanded, offset: request.offset, limit: request.limit)
        OutlineRowsResponse.write(rows, request, to: &json)
    }
}

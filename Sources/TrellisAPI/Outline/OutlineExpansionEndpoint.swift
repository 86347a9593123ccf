import TrellisJSON
import TrellisCore

/// Issue 3, POST /v1/outline/expansion: the nodes to expand so that every found selection is visible.
enum OutlineExpansionEndpoint {
    static let endpoint = JSONEndpoint(path: "/v1/outline/expansion", depthAdvice: OutlineLimits.depthAdvice,
        sizeAdvice: OutlineLimits.expansionSizeAdvice
    ) {
        body, problems, json in
        guard let request = OutlineExpansionRequest(body, &problems) else { return }
        let expansion = OutlineExpansion(tree: request.input.tree, selections: request.indices)
        write(expansion, request, &json)
    }

    /// `{"expand": [id], "paths": [{"id", "found", "path": [id]}]}`.
    static func write(_ expansion: OutlineExpansion, _ request: OutlineExpansionRequest, _ json: inout JSONWriter) {
        let input = request.input
        json.beginObject()
        json.key("expand")
        json.beginArray()
        for node in expansion.expand { input.writeID(of: node, to: &json) }
        json.endArray()
        json.key("paths")
        json.beginArray()
        for (k, path) in expansion.paths.enumerated() {
            json.beginObject()
            json.key("id"); ClientID.write(request.selections[k], to: &json)
            json.key("found"); json.bool(request.indices[k] != nil)
            json.key("path")
            json.beginArray()
            for node in path { input.writeID(of: node, to: &json) }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }
}

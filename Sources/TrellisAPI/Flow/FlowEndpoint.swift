import TrellisCore

/// POST /v1/flow/layout (issue 4): read every problem, lay out with the core, write the result.
public enum FlowEndpoint {
    public static let path = "/v1/flow/layout"

    public static let endpoint = JSONEndpoint(path: path) { body, problems, json in
        guard let request = FlowLayoutRequest.read(body, &problems) else { return }
        let result = FlowLayout.compute(request.layout)
        json.reserveCapacity(FlowLayoutResponse.estimatedSize(result, hasIDs: !request.ids.isEmpty))
        FlowLayoutResponse.write(result, ids: request.ids, to: &json)
    }
}

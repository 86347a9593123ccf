import TrellisCore

/// Issue 5: `POST /v1/sections/toggle` applies `toggle` or `actions` to the open sections.
enum SectionsToggleEndpoint {
    static let endpoint = JSONEndpoint(
        path: "/v1/sections/toggle",
        depthAdvice: "Section items are echoed as sent; nest them less deeply."
    ) { root, problems, json in
        guard let request = SectionsToggleRequest(json: root, problems: &problems) else { return }
        let final = SectionsReducer.reduce(request.state, request.actions)
        SectionsToggleResponse.write(
            SectionsRenderer.render(final, initial: request.state), sections: request.sections, to: &json)
    }
}

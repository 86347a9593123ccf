import TrellisCore
import TrellisJSON

/// `POST /v1/sections/toggle`: applies `toggle` or `actions` to the open sections.
enum SectionsToggleEndpoint: Endpoint {
    static let path = "/v1/sections/toggle"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = "Section items are echoed as sent; nest them less deeply."

    static func read(_ body: JSONValue, _ problems: inout Problems) -> SectionsToggleRequest? {
        SectionsToggleRequest.read(body, &problems)
    }

    static func respond(
        to request: SectionsToggleRequest, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter
    ) {
        let final = SectionsReducer.reduce(request.state, request.actions, meter: &meter)
        SectionsToggleResponse.write(
            SectionsRenderer.render(final, initial: request.state), sections: request.sections, to: &json)
    }
}

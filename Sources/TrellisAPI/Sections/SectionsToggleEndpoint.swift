import TrellisCore
import TrellisJSON

/// `POST /v1/sections/toggle`: applies `toggle` or `actions` to the open sections.
enum SectionsToggleEndpoint: Endpoint {
    static let path = "/v1/sections/toggle"
    static let workingMemoryPerByte = 12
    static let depthAdvice: String? = "Section items are echoed as sent; nest them less deeply."

    static func respond(to request: SectionsToggleRequest, _ call: inout EndpointCall) {
        SectionsToggleResponse.write(SectionsToggle.compute(request.input, meter: &call.meter), sections: request.sections, to: &call.json)
    }
}

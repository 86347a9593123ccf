import TrellisCore
import TrellisJSON

/// A feature's request as its endpoint reads it from a JSON body: the core's input plus what the answer echoes.
protocol FeatureRequest {
    /// Reads the body, recording every problem with its pointer; nil when there was any.
    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems)
}

/// One feature endpoint, built the same way for every feature: read the JSON body into its request
/// (recording every problem with its pointer), compute with the core, write the answer.
protocol Endpoint: SendableMetatype {
    associatedtype Request: FeatureRequest
    /// The route, `/v1/<feature>/<operation>`.
    static var path: String { get }
    /// Added to the 400 for bodies nested deeper than the parser allows.
    static var depthAdvice: String? { get }
    /// Added to the 422 for answers past their size bound: how to ask for less.
    static var sizeAdvice: String? { get }
    /// Rule: the most memory computing an answer takes (the parsed document, the readers'
    /// and the core's arrays; not the body, not the answer) per body byte, as measured for the endpoint's worst
    /// request; the router takes this much from the memory budget before it parses.
    static var workingMemoryPerByte: Int { get }
    /// Rule: calls exactly one `compute` of the core (or of TrellisText) with the request's input, then the
    /// answer's writer (`call.json`); a refusal the compute returns is recorded instead, rendering itself
    /// (`call.problems.add(refusal, at:)`). The core counts its work on `call.meter` and stops when the request's
    /// deadline passes (then the answer is a 503, whatever was written).
    static func respond(to request: consuming Request, _ call: inout EndpointCall)
}

extension Endpoint {
    static var depthAdvice: String? { nil }
    static var sizeAdvice: String? { nil }
}

extension JSONEndpoint {
    /// The service's view of a feature endpoint.
    init<E: Endpoint>(_ endpoint: E.Type) {
        self.init(
            path: E.path, depthAdvice: E.depthAdvice, sizeAdvice: E.sizeAdvice, workingMemoryPerByte: E.workingMemoryPerByte
        ) { body, call in
            guard let request = E.Request(reading: body, call.context, &call.problems) else { return }
            E.respond(to: consume request, &call)
        }
    }
}

import TrellisCore
import TrellisJSON

/// One feature endpoint, built the same way for every feature: read the JSON body into a request
/// (recording every problem with its pointer), compute with the core, write the answer.
protocol Endpoint: SendableMetatype {
    associatedtype Request
    /// The route, `/v1/<feature>/<operation>`.
    static var path: String { get }
    /// Added to the 400 for bodies nested deeper than the parser allows.
    static var depthAdvice: String? { get }
    /// Added to the 422 for answers past their size bound: how to ask for less.
    static var sizeAdvice: String? { get }
    /// Rule "working memory": the most memory computing an answer takes (the parsed document, the readers'
    /// and the core's arrays; not the body, not the answer) per body byte, as measured for the endpoint's worst
    /// request; the router takes this much from the memory budget before it parses.
    static var workingMemoryPerByte: Int { get }
    /// The request, or nil after recording at least one problem.
    static func read(_ body: JSONValue, _ problems: inout Problems) -> Request?
    /// Computes the answer with the core and writes it; records problems the core refuses with instead.
    /// The core counts its work on `meter` and stops when the request's deadline passes (then the
    /// answer is a 503, whatever was written).
    static func respond(to request: consuming Request, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter)
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
        ) { body, problems, json, meter in
            guard let request = E.read(body, &problems) else { return }
            E.respond(to: consume request, &problems, &json, &meter)
        }
    }
}

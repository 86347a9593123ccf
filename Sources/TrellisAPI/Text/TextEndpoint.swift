import TrellisCore
import TrellisJSON
import TrellisText

/// A feature endpoint that may measure text: read and respond get the service's fonts. Built like
/// `Endpoint`; the service binds it to its fonts when it starts.
protocol TextEndpoint: SendableMetatype {
    associatedtype Request
    static var path: String { get }
    static var depthAdvice: String? { get }
    static var sizeAdvice: String? { get }
    /// As `Endpoint.workingMemoryPerByte`.
    static var workingMemoryPerByte: Int { get }
    /// The request, or nil after recording at least one problem; 503 while the fonts it needs are loading.
    static func read(_ body: JSONValue, _ fonts: TextFonts, _ problems: inout Problems) throws(ProblemDetails) -> Request?
    static func respond(
        to request: consuming Request, _ fonts: TextFonts, _ problems: inout Problems, _ json: inout JSONWriter, _ meter: inout WorkMeter)
}

extension TextEndpoint {
    static var depthAdvice: String? { nil }
    static var sizeAdvice: String? { nil }
}

extension JSONEndpoint {
    /// The service's view of a text endpoint, bound to `fonts` (the service rebinds it to its own).
    init<E: TextEndpoint>(_ endpoint: E.Type, fonts: TextFonts = TextFonts()) {
        self.init(
            path: E.path, depthAdvice: E.depthAdvice, sizeAdvice: E.sizeAdvice, workingMemoryPerByte: E.workingMemoryPerByte,
            handle: { body, problems, json, meter throws(ProblemDetails) in
                guard let request = try E.read(body, fonts, &problems) else { return }
                E.respond(to: consume request, fonts, &problems, &json, &meter)
            },
            bind: { JSONEndpoint(E.self, fonts: $0) })
    }
}

import TrellisCore
import TrellisJSON

/// One endpoint call: what an endpoint's reader and `respond` work with besides the body. The pipeline makes one per
/// request (one for all of a batch's entries, given new problems and a new meter for each) and hands it on.
public struct EndpointCall: ~Copyable {
    /// The service's fonts and shared caches.
    public let context: FeatureContext
    /// The body's problems, each with its pointer: any makes the answer a 422 (what was written is dropped).
    public var problems: Problems
    /// The answer, streamed within its bound.
    public var json: JSONWriter
    /// The work counted so far; it stops the computation once the request's deadline passes (the answer is a 503).
    public var meter: WorkMeter
    /// The answer's limit for a body of so many bytes, when the answer may be bounded as another body's (a request
    /// naming what an earlier one sent): set for a request alone, nil for a batch's entries (each keeps its own bound).
    public var answerLimit: (@Sendable (Int) -> Int)?

    public init(context: FeatureContext, problems: Problems = Problems(), json: consuming JSONWriter, meter: WorkMeter) {
        self.context = context
        self.problems = problems
        self.json = json
        self.meter = meter
    }
}

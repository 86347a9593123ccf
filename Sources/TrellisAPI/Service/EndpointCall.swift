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

    public init(context: FeatureContext, problems: Problems = Problems(), json: consuming JSONWriter, meter: WorkMeter) {
        self.context = context
        self.problems = problems
        self.json = json
        self.meter = meter
    }
}

import TrellisHTTP

/// What the HTTP layer needs to know beyond the socket settings.
public struct ServiceConfiguration: Sendable {
    public var cors: CORSPolicy
    public var log: AccessLog
    /// Rule: no answer is larger than this many times its request's body, plus 1 MiB.
    public var maxAnswerFactor: Int
    /// Answers being written reserve their bytes here (the server's budget); nil: unbounded.
    public var memoryBudget: HTTPMemoryBudget?
    /// What the feature endpoints compute with (the fonts, loaded before the server listens; the shared caches).
    public var context: FeatureContext
    /// Rule: a request still computing this long after it arrived is abandoned with a 503 (nil: never).
    public var requestTimeout: Duration?
    /// GET /metrics on the API port; false when the operations listener (--ops-port) serves it instead.
    public var metricsOnAPIPort: Bool

    public static let answerAllowance = 1 << 20

    public init(
        cors: CORSPolicy = .anyOrigin, log: AccessLog = AccessLog(enabled: false),
        maxAnswerFactor: Int = 16, memoryBudget: HTTPMemoryBudget? = nil, context: FeatureContext = FeatureContext(),
        requestTimeout: Duration? = nil, metricsOnAPIPort: Bool = true
    ) {
        self.metricsOnAPIPort = metricsOnAPIPort
        self.context = context
        self.requestTimeout = requestTimeout
        self.cors = cors
        self.log = log
        self.maxAnswerFactor = maxAnswerFactor
        self.memoryBudget = memoryBudget
    }

    /// Rule: a worker busy on one request for longer than this has stopped making progress:
    /// the request deadline plus a margin for reading the body from memory, parsing and writing the
    /// answer (nil without a request deadline: no request is bounded, so none is stuck).
    public var stuckWorkerAfter: Duration? {
        requestTimeout.map { $0 + Self.stuckWorkerMargin }
    }

    public static let stuckWorkerMargin = Duration.seconds(10)

    /// The largest answer to a request with a body of `bodyBytes`.
    public func answerLimit(bodyBytes: Int) -> Int {
        let (scaled, overflow) = bodyBytes.multipliedReportingOverflow(by: maxAnswerFactor)
        return overflow ? .max : scaled.addingReportingOverflow(Self.answerAllowance).overflow ? .max : scaled + Self.answerAllowance
    }
}

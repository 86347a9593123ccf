import TrellisJSON

/// A POST endpoint that reads a JSON body and answers JSON.
public struct JSONEndpoint: Sendable {
    public let path: String
    /// Reads the request with the call's feature context, recording every problem; when there were none,
    /// computes and writes the answer. Nothing is written when a problem was recorded.
    public let handle: @Sendable (JSONValue, inout EndpointCall) -> Void
    /// Added to the 400 answer when the body nests deeper than the parser allows.
    public let depthAdvice: String?
    /// Added to the 422 answer when the answer would pass its size limit: how to ask for less.
    public let sizeAdvice: String?
    /// Rule: bytes taken from the memory budget per body byte while the answer is computed.
    public let workingMemoryPerByte: Int

    public init(
        path: String, depthAdvice: String? = nil, sizeAdvice: String? = nil, workingMemoryPerByte: Int = 12,
        handle: @escaping @Sendable (JSONValue, inout EndpointCall) -> Void
    ) {
        self.path = path
        self.depthAdvice = depthAdvice
        self.sizeAdvice = sizeAdvice
        self.workingMemoryPerByte = workingMemoryPerByte
        self.handle = handle
    }
}

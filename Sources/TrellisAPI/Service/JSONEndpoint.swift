import TrellisCore
import TrellisJSON

/// A POST endpoint that reads a JSON body and answers JSON.
public struct JSONEndpoint: Sendable {
    public let path: String
    /// Reads the request, recording every problem; when there were none, computes and writes
    /// the answer. Nothing is written when a problem was recorded.
    /// It may refuse with a problem of its own (503 while the fonts it needs are loading).
    public let handle: @Sendable (JSONValue, inout Problems, inout JSONWriter, inout WorkMeter) throws(ProblemDetails) -> Void
    /// Added to the 400 answer when the body nests deeper than the parser allows.
    public let depthAdvice: String?
    /// Added to the 422 answer when the answer would pass its size limit: how to ask for less.
    public let sizeAdvice: String?
    /// Rule "working memory": bytes taken from the memory budget per body byte while the answer is computed.
    public let workingMemoryPerByte: Int
    /// For endpoints that measure text: the same endpoint reading a service's fonts.
    let bind: (@Sendable (TextFonts) -> JSONEndpoint)?

    public init(
        path: String, depthAdvice: String? = nil, sizeAdvice: String? = nil, workingMemoryPerByte: Int = 12,
        handle: @escaping @Sendable (JSONValue, inout Problems, inout JSONWriter, inout WorkMeter) throws(ProblemDetails) -> Void
    ) {
        self.init(
            path: path, depthAdvice: depthAdvice, sizeAdvice: sizeAdvice, workingMemoryPerByte: workingMemoryPerByte,
            handle: handle, bind: nil)
    }

    init(
        path: String, depthAdvice: String?, sizeAdvice: String?, workingMemoryPerByte: Int,
        handle: @escaping @Sendable (JSONValue, inout Problems, inout JSONWriter, inout WorkMeter) throws(ProblemDetails) -> Void,
        bind: (@Sendable (TextFonts) -> JSONEndpoint)?
    ) {
        self.path = path
        self.depthAdvice = depthAdvice
        self.sizeAdvice = sizeAdvice
        self.workingMemoryPerByte = workingMemoryPerByte
        self.handle = handle
        self.bind = bind
    }

    /// This endpoint reading `fonts` (endpoints that measure no text are unchanged).
    func bound(to fonts: TextFonts) -> JSONEndpoint { bind?(fonts) ?? self }
}

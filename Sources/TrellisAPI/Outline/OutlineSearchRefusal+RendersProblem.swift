import TrellisCore

/// A label too long to be searched is one of the body's problems, at the label.
extension OutlineSearchRefusal: RendersProblem {
    var blame: ProblemBlame? {
        // The request's deadline passed: the pipeline answers 503, whatever was recorded.
        if case .stopped = self { return nil }
        return .value
    }

    var detail: String {
        switch self {
        case .labelsTooLong:
            return "must be at most \(OutlineLimits.maxLabelBytes) bytes of UTF-8 to be searched"
        case .stopped:
            return "was not searched: the request's deadline passed"
        }
    }
}

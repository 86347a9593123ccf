import TrellisText

/// A text that cannot be measured is one of the body's problems, at the text.
extension TextRefusal: RendersProblem {
    var blame: ProblemBlame? {
        // The request's deadline passed: the pipeline answers 503, whatever was recorded.
        if case .stopped = self { return nil }
        return .value
    }

    var detail: String {
        switch self {
        case .forbidden(let scalar, let offset):
            let kind = scalar < 0x202A ? "a control character" : "an explicit bidi embedding, override or isolate"
            return "contains \(TextFontRequest.codePoint(scalar)), \(kind), at scalar \(offset); these cannot be measured"
        case .uncovered(let clusters):
            let listed = clusters.map { $0.map(TextFontRequest.codePoint).joined(separator: " ") }.joined(separator: ", ")
            return "has characters no listed family can show: \(listed)"
        case .clusterTooLong(let offset, let scalars):
            return "has a grapheme cluster of \(scalars) Unicode scalars at scalar \(offset); "
                + "at most \(TextMeasurer.maxClusterScalars) are allowed in one cluster"
        case .outOfMemory:
            return "could not be measured: the server ran out of memory"
        case .stopped:
            return "was not measured: the request's deadline passed"
        }
    }
}

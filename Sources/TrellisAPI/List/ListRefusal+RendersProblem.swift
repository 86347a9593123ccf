import TrellisText

/// A list's refusals: a paragraph's at that paragraph (the endpoint passes its text), the bounds' at the widths.
extension ListRefusal: RendersProblem {
    var blame: ProblemBlame? {
        switch self {
        case .paragraph(_, let refusal): refusal.blame
        case .tooManyLines, .tooManyRowWidths: .value
        }
    }

    var detail: String {
        switch self {
        case .paragraph(_, let refusal):
            refusal.detail
        case .tooManyLines(let limit):
            "lays the rows out in more than \(limit) lines at every width together (\(ListLayout.maxLinesPerInputByte) per byte "
                + "of the request): the rows are far narrower than their text; send fewer widths or wider rows"
        case .tooManyRowWidths(let limit):
            "asks for more rows with text times widths than \(limit) (one per \(ListLayout.bytesPerRowWidth) bytes of the "
                + "request): send fewer widths, or fewer rows per request"
        }
    }
}

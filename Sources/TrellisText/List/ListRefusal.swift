/// Why a list cannot be laid out.
public enum ListRefusal: Error, Sendable, Equatable {
    /// A paragraph (its index among the list's paragraphs) that cannot be laid out, and why.
    case paragraph(Int, TextRefusal)
    /// Rule: the rows' lines at every width together are at most `ListLayout.maxLinesPerInputByte` per byte of
    /// the input (`limit` lines here): rows far narrower than their text, at many widths, make a line of every
    /// grapheme, and the lines are the work.
    case tooManyLines(limit: Int)
    /// Rule: the rows with a line, times the widths, are at most one per `ListLayout.bytesPerRowWidth` bytes of
    /// the input (`limit` here): each is kept in 8 bytes until the answer is written.
    case tooManyRowWidths(limit: Int)
}

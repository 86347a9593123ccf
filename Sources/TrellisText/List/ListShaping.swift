/// A list's paragraphs as they were shaped when it was laid out, kept with the list so that laying it out again at
/// other widths neither shapes nor looks up a paragraph: per paragraph its shaping, or nil for one with nothing to
/// lay out (it has no line at any width).
public struct ListShaping: Sendable {
    var paragraphs: [ShapedParagraph?]

    /// Rule: the bytes it keeps: a reference per paragraph, and each shaping's arrays as the shaping cache counts
    /// them (without its text, which the list keeps). A paragraph the shaping cache keeps too is counted by both.
    public let bytes: Int

    init(_ paragraphs: [ShapedParagraph?]) {
        self.paragraphs = paragraphs
        var bytes = 8 * paragraphs.count
        for case let paragraph? in paragraphs { bytes += ShapingCache.entryBytes(paragraph, textBytes: 0) }
        self.bytes = bytes
    }

    public var count: Int { paragraphs.count }
}

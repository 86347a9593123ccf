import TrellisCore

/// A flow of labels laid out: the flow's output, and the paragraph of each item laid out as one (narrowed to its
/// `maxWidth`, or every label with a `whiteSpace`), and of the chip shown with a `whiteSpace`.
public struct FlowLabelsOutput: Sendable {
    public var layout: FlowOutput
    /// Rule for `maxWidth` and `whiteSpace`: each such item's label laid out in its content box, by item index.
    public var paragraphs: [Int: ParagraphLayout]
    /// Rule for `whiteSpace`: the chip's label, for the count it shows, when the chip is shown.
    public var chipParagraph: ParagraphLayout?

    public init(layout: FlowOutput, paragraphs: [Int: ParagraphLayout], chipParagraph: ParagraphLayout? = nil) {
        self.layout = layout
        self.paragraphs = paragraphs
        self.chipParagraph = chipParagraph
    }
}

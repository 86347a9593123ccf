import TrellisCore

/// A flow of labels laid out: the flow's output, and the paragraph of the chip's label when it is shown with a
/// `whiteSpace` (an item's paragraph is laid out again as the answer is written: `FlowLabels.compute`'s `write`).
public struct FlowLabelsOutput: Sendable {
    public var layout: FlowOutput
    /// Rule for `whiteSpace`: the chip's label, for the count it shows, when the chip is shown.
    public var chipParagraph: ParagraphLayout?

    public init(layout: FlowOutput, chipParagraph: ParagraphLayout? = nil) {
        self.layout = layout
        self.chipParagraph = chipParagraph
    }
}

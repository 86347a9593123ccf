import TrellisCore

/// A flow of labels laid out: the flow's output, and the paragraph of each item narrowed to its `maxWidth`.
public struct FlowLabelsOutput: Sendable {
    public var layout: FlowOutput
    /// Rule for `maxWidth`: each narrowed item's label laid out in its content box, by item index.
    public var paragraphs: [Int: ParagraphLayout]
}

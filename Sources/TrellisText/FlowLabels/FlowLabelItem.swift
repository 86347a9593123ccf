import TrellisCore

/// A flow's item as given: its size, or its text to measure (narrowed to its `maxWidth` when it has one) and whether
/// it starts a row. No item has a size before it has one.
public enum FlowLabelItem: Sendable, Equatable {
    case size(FlowItem)
    case text(FlowLabelText, narrowing: FlowLabelNarrowing? = nil, breakBefore: Bool = false)
}

import TrellisCore

/// Rule for `overflowIndicator`: the chip's size, or its label (`{n}` stands for the hidden count) measured for
/// each count it shows.
public enum FlowLabelChip: Sendable, Equatable {
    case size(Size)
    case text(FlowLabelText)
}

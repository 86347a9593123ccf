/// Why a flow of labels is not laid out.
public enum FlowLabelsRefusal: Error, Sendable, Equatable {
    /// The texts that cannot be measured, each with its refusal: the items' in order, then the chip's.
    case unmeasurable([FlowLabelTextRefusal])
    /// The caller's WorkMeter said stop (its deadline passed).
    case stopped
}

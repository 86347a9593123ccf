/// An item's (or the chip's) text, as the caller keeps it: 4 bytes, read only when it is measured (the API: where
/// the text is in the parsed request body). `FlowLabels.compute` reads it through the caller's text accessor and
/// names it back in a refusal.
public struct FlowLabelText: Sendable, Equatable {
    /// The caller's reference to the text.
    public var reference: UInt32

    public init(reference: UInt32) {
        self.reference = reference
    }
}

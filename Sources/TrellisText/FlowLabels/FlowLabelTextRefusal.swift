/// One text that cannot be measured, and why.
public struct FlowLabelTextRefusal: Sendable, Equatable {
    public var text: FlowLabelText
    public var refusal: TextRefusal

    public init(text: FlowLabelText, refusal: TextRefusal) {
        self.text = text
        self.refusal = refusal
    }
}

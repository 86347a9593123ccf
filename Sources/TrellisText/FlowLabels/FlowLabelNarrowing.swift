/// Rule for `maxWidth`: a text item's outer width limit (padding included) and the lines it shows (1: one line cut
/// with an ellipsis). Valid: `maxWidth` finite and ≥ 0, `maxLines` ≥ 1.
public struct FlowLabelNarrowing: Sendable, Equatable {
    public var maxWidth: Double
    public var maxLines: Int32

    public init(maxWidth: Double, maxLines: Int32 = 1) {
        self.maxWidth = maxWidth
        self.maxLines = maxLines
    }
}

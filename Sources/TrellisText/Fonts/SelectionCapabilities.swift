/// The weights, widths and slopes an @font-face rule declares its face for (Blink's FontSelectionCapabilities);
/// a descriptor left out is the normal value (400, 100%, 0°), marked auto.
public struct SelectionCapabilities: Hashable, Sendable {
    public var weight: SelectionRange
    public var width: SelectionRange
    public var slope: SelectionRange

    public init(weight: SelectionRange? = nil, width: SelectionRange? = nil, slope: SelectionRange? = nil) {
        self.weight = weight ?? SelectionRange(400, 400, isAuto: true)
        self.width = width ?? SelectionRange(100, 100, isAuto: true)
        self.slope = slope ?? SelectionRange(0, 0, isAuto: true)
    }

    /// Faces with equal ranges form one segmented face (their auto marks aside, as Blink compares them).
    func sameRanges(as other: SelectionCapabilities) -> Bool {
        weight.lower == other.weight.lower && weight.upper == other.weight.upper && width.lower == other.width.lower
            && width.upper == other.width.upper && slope.lower == other.slope.lower && slope.upper == other.slope.upper
    }
}

/// A closed range of one selection value, as an @font-face descriptor declares it; `isAuto` when the descriptor
/// was left out (Chromium then varies a variable face along the font's own axis range).
public struct SelectionRange: Hashable, Sendable {
    public var lower: Double
    public var upper: Double
    public var isAuto: Bool

    /// The range between two values, in either order (CSS swaps a decreasing range).
    public init(_ a: Double, _ b: Double, isAuto: Bool = false) {
        lower = FontSelection.quantized(min(a, b))
        upper = FontSelection.quantized(max(a, b))
        self.isAuto = isAuto
    }

    public init(_ value: Double) { self.init(value, value) }

    func includes(_ value: Double) -> Bool { lower <= value && value <= upper }
    func clamp(_ value: Double) -> Double { min(max(value, lower), upper) }
}

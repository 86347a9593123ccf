/// The widths a paragraph needs: its widest unbreakable piece and its width on one line.
public struct ContentWidths: Equatable, Sendable {
    public var min: Double
    public var max: Double
}

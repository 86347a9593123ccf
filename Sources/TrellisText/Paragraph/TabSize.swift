/// CSS `tab-size`: how far apart tab stops are.
public enum TabSize: Sendable, Equatable {
    /// A number of spaces: that many times the primary face's space advance (plus letter and word spacing).
    case spaces(Double)
    /// A length in px.
    case length(Double)

    /// CSS's initial value: 8 spaces.
    public static let initial = TabSize.spaces(8)
}

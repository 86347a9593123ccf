/// How a row's cells are spread horizontally: CSS justify-content per flex line.
public enum FlowAlignment: Sendable, Equatable, CaseIterable {
    case leading
    case center
    case trailing
    case spaceBetween
    case spaceAround
    case spaceEvenly
}

/// Where a cell sits vertically in its row: CSS align-items.
public enum FlowRowAlignment: Sendable, Equatable, CaseIterable {
    case top
    case center
    case bottom
}

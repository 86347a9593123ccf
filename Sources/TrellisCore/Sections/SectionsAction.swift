/// One step of the sections' state machine, on a section's dense index.
public enum SectionsAction: Sendable, Equatable, Hashable {
    case toggle(Int)
    case expand(Int)
    case collapse(Int)
    /// Rule (single mode): the API refuses `expandAll` with 422; if it reaches the reducer anyway, it is a no-op.
    case expandAll
    case collapseAll

    public var section: Int? {
        switch self {
        case .toggle(let index), .expand(let index), .collapse(let index): index
        case .expandAll, .collapseAll: nil
        }
    }
}

/// Issue 5, `toggle` / `actions`: one step of the state machine, on a section's dense index.
public enum SectionsAction: Sendable, Equatable, Hashable {
    case toggle(Int)
    case expand(Int)
    case collapse(Int)
    /// Issue 5, single mode: the API answers 422; if it reaches the reducer anyway, it is a no-op.
    case expandAll
    case collapseAll

    public var section: Int? {
        switch self {
        case .toggle(let index), .expand(let index), .collapse(let index): index
        case .expandAll, .collapseAll: nil
        }
    }
}

/// One step of the sections' state machine, on a section's dense index.
public enum SectionsAction: Sendable, Equatable, Hashable {
    /// Opens a closed section, closes an open one.
    case toggle(Int)
    /// Opens the section.
    case expand(Int)
    /// Closes the section.
    case collapse(Int)
    /// Rule (single mode): the API refuses `expandAll` with 422; if it reaches the reducer anyway, it is a no-op.
    case expandAll
    /// Closes every section.
    case collapseAll

    /// The section the action names; nil for expandAll and collapseAll.
    public var section: Int? {
        switch self {
        case .toggle(let index), .expand(let index), .collapse(let index): index
        case .expandAll, .collapseAll: nil
        }
    }
}

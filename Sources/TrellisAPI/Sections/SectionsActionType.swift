/// The wire names of `actions[i].type`.
enum SectionsActionType: CaseIterable, WireNamed {
    case toggle
    case expand
    case collapse
    case expandAll
    case collapseAll

    var wireName: String {
        switch self {
        case .toggle: "toggle"
        case .expand: "expand"
        case .collapse: "collapse"
        case .expandAll: "expandAll"
        case .collapseAll: "collapseAll"
        }
    }
}

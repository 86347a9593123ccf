/// The wire names of `actions[i].type`.
enum SectionsActionType: String, CaseIterable {
    case toggle
    case expand
    case collapse
    case expandAll
    case collapseAll
}

/// Issue 5, `actions[i].type`.
enum SectionsActionType: String, CaseIterable {
    case toggle
    case expand
    case collapse
    case expandAll
    case collapseAll
}

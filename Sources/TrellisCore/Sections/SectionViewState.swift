/// Issue 5, response `sections[i]` without `id`, `items` and `itemCount`, which the API echoes.
public struct SectionViewState: Sendable, Equatable, Hashable {
    public var expanded: Bool
    public var headerDisabled: Bool
    public var icon: SectionIcon
    public var showDivider: Bool

    public init(expanded: Bool, headerDisabled: Bool, icon: SectionIcon, showDivider: Bool) {
        self.expanded = expanded
        self.headerDisabled = headerDisabled
        self.icon = icon
        self.showDivider = showDivider
    }
}

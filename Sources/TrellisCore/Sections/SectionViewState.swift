/// How one section is drawn: open, header disabled, icon, divider (the API adds id, items and itemCount).
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

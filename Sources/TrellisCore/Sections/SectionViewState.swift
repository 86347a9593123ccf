/// How one section is drawn: open, header disabled, icon, divider (the API adds id, items and itemCount).
public struct SectionViewState: Sendable, Equatable, Hashable {
    /// The section is open.
    public var expanded: Bool
    /// Activating the header can't change anything (single mode, not collapsible, open).
    public var headerDisabled: Bool
    /// Up when open, down when closed.
    public var icon: SectionIcon
    /// True when collapsed.
    public var showDivider: Bool

    /// A section view as SectionsRenderer makes it.
    public init(expanded: Bool, headerDisabled: Bool, icon: SectionIcon, showDivider: Bool) {
        self.expanded = expanded
        self.headerDisabled = headerDisabled
        self.icon = icon
        self.showDivider = showDivider
    }
}

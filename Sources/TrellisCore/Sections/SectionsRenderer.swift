/// What each header shows for a state, and which sections changed since the request.
public enum SectionsRenderer {
    /// Each section's view for `state`, and which sections differ from `initial` (the state before the actions).
    public static func render(_ state: SectionsState, initial: SectionsState) -> SectionsOutput {
        precondition(initial.count == state.count, "SectionsRenderer: initial has \(initial.count) sections, state \(state.count)")
        let now = state.expanded, before = initial.expanded
        return SectionsOutput(
            expanded: now.indices.filter { now[$0] },
            changed: now.indices.filter { now[$0] != before[$0] },
            sections: now.map { expanded in
                SectionViewState(
                    expanded: expanded,
                    headerDisabled: expanded && state.mode == .single && !state.collapsible,
                    icon: expanded ? .chevronUp : .chevronDown,
                    showDivider: !expanded
                )
            }
        )
    }
}

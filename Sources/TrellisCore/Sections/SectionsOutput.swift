/// The rendered sections: the open ones, the changed ones, and each section's view, by section index.
public struct SectionsOutput: Sendable, Equatable, Hashable {
    /// The open sections' indices, in section order.
    public var expanded: [Int]
    /// The sections whose state differs from the initial state.
    public var changed: [Int]
    /// Each section's view, in section order.
    public var sections: [SectionViewState]

    /// An output as SectionsRenderer makes it.
    public init(expanded: [Int], changed: [Int], sections: [SectionViewState]) {
        self.expanded = expanded
        self.changed = changed
        self.sections = sections
    }
}

/// The rendered sections: the open ones, the changed ones, and each section's view, by section index.
public struct SectionsViewState: Sendable, Equatable, Hashable {
    public var expanded: [Int]
    public var changed: [Int]
    public var sections: [SectionViewState]

    public init(expanded: [Int], changed: [Int], sections: [SectionViewState]) {
        self.expanded = expanded
        self.changed = changed
        self.sections = sections
    }
}

/// Issue 5, Response 200: `expanded`, `changed` and `sections`, by section index.
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

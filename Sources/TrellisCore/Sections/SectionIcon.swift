/// The header's chevron: the API writes `chevron.up` / `chevron.down`.
public enum SectionIcon: Sendable, Equatable, Hashable, CaseIterable {
    case chevronUp
    case chevronDown
}

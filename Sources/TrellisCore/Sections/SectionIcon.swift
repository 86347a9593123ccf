/// Issue 5, response `icon`: the API writes `chevron.up` / `chevron.down`.
public enum SectionIcon: Sendable, Equatable, Hashable {
    case chevronUp
    case chevronDown
}

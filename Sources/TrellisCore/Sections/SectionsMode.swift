/// Rule: `multiple` keeps a set of open sections (the seed's Set); `single` is an accordion.
public enum SectionsMode: Sendable, Equatable, Hashable, CaseIterable {
    case multiple
    case single
}

/// The logical edge the drawer slides in from.
public enum DrawerEdge: String, Sendable, Equatable, Hashable, CaseIterable {
    case leading
    case trailing
}

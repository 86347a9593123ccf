/// The logical edge the drawer slides in from.
public enum DrawerEdge: Sendable, Equatable, Hashable, CaseIterable {
    case leading
    case trailing
}

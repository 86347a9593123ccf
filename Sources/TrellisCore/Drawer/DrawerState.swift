/// The drawer's presentation state: whether it is presented.
public struct DrawerState: Sendable, Equatable, Hashable {
    /// True when the drawer is open.
    public var isPresented: Bool

    /// Closed unless told otherwise.
    public init(isPresented: Bool = false) {
        self.isPresented = isPresented
    }
}

/// Issue 6 "Request": `isPresented`, the drawer's presentation state.
public struct DrawerState: Sendable, Equatable, Hashable {
    public var isPresented: Bool

    public init(isPresented: Bool = false) {
        self.isPresented = isPresented
    }
}

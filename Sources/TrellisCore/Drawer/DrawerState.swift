/// The drawer's presentation state: whether it is presented.
public struct DrawerState: Sendable, Equatable, Hashable {
    public var isPresented: Bool

    public init(isPresented: Bool = false) {
        self.isPresented = isPresented
    }
}

/// A sections toggle to compute: the state before, and the actions to apply in order.
public struct SectionsInput: Sendable, Equatable {
    public var state: SectionsState
    public var actions: [SectionsAction]

    public init(state: SectionsState, actions: [SectionsAction]) {
        self.state = state
        self.actions = actions
    }
}

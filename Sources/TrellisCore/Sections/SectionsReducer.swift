/// The sections' pure state machine: (state, action) → state.
public enum SectionsReducer {
    /// The state after one action, by the mode's rules.
    public static func reduce(_ state: SectionsState, _ action: SectionsAction) -> SectionsState {
        if let index = action.section {
            precondition(
                state.expanded.indices.contains(index),
                "SectionsReducer: section \(index) out of 0..<\(state.count)"
            )
        }
        var next = state
        switch (state.mode, action) {
        case (.multiple, .toggle(let index)):
            next.expanded[index].toggle()
        case (.multiple, .expand(let index)):
            next.expanded[index] = true
        case (.multiple, .collapse(let index)):
            next.expanded[index] = false
        case (.multiple, .expandAll):
            next.expanded = [Bool](repeating: true, count: state.count)
        case (.multiple, .collapseAll):
            next.expanded = [Bool](repeating: false, count: state.count)
        case (.single, .toggle(let index)) where state.expanded[index]:
            closeIfCollapsible(&next, index)
        case (.single, .toggle(let index)), (.single, .expand(let index)):
            openOnly(&next, index)
        case (.single, .collapse(let index)):
            closeIfCollapsible(&next, index)
        case (.single, .expandAll):
            break
        case (.single, .collapseAll):
            for index in state.expandedIndices {
                closeIfCollapsible(&next, index)
            }
        }
        return next
    }

    /// Rule: actions are applied one after another; the answer is the final state.
    public static func reduce(_ state: SectionsState, _ actions: some Sequence<SectionsAction>) -> SectionsState {
        actions.reduce(state) { Self.reduce($0, $1) }
    }

    /// Rule (single mode): opening one section closes the others.
    private static func openOnly(_ state: inout SectionsState, _ index: Int) {
        for other in state.expanded.indices {
            state.expanded[other] = other == index
        }
    }

    /// Rule (single mode): closing leaves the section open when `collapsible` is false.
    private static func closeIfCollapsible(_ state: inout SectionsState, _ index: Int) {
        if state.collapsible {
            state.expanded[index] = false
        }
    }
}

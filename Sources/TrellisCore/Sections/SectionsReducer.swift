/// The sections' pure state machine: (state, action) → state, each action in O(1).
public enum SectionsReducer {
    /// Applies one action to `state`, by the mode's rules.
    public static func reduce(into state: inout SectionsState, _ action: SectionsAction) {
        if let index = action.section {
            precondition((0..<state.count).contains(index), "SectionsReducer: section \(index) out of 0..<\(state.count)")
        }
        switch (state.mode, action) {
        case (.multiple, .toggle(let index)):
            state.set(index, !state.isExpanded(index))
        case (.multiple, .expand(let index)):
            state.set(index, true)
        case (.multiple, .collapse(let index)):
            state.set(index, false)
        case (.multiple, .expandAll):
            state.setAll(true)
        case (.multiple, .collapseAll):
            state.setAll(false)
        case (.single, .toggle(let index)) where state.open == index:
            closeIfCollapsible(&state)
        case (.single, .toggle(let index)), (.single, .expand(let index)):
            // Rule (single mode): opening one section closes the others.
            state.open = index
        case (.single, .collapse(let index)):
            if state.open == index { closeIfCollapsible(&state) }
        case (.single, .expandAll):
            break
        case (.single, .collapseAll):
            closeIfCollapsible(&state)
        }
    }

    /// The state after one action.
    public static func reduce(_ state: SectionsState, _ action: SectionsAction) -> SectionsState {
        var next = state
        reduce(into: &next, action)
        return next
    }

    /// Rule: actions are applied one after another; the answer is the final state. A step per action on
    /// `meter`; the result is incomplete once the meter says stop.
    public static func reduce(_ state: SectionsState, _ actions: some Sequence<SectionsAction>, meter: inout WorkMeter) -> SectionsState {
        var state = state
        for action in actions {
            guard meter.advance() else { break }
            reduce(into: &state, action)
        }
        return state
    }

    /// Rule: actions are applied one after another.
    public static func reduce(_ state: SectionsState, _ actions: some Sequence<SectionsAction>) -> SectionsState {
        var meter = WorkMeter()
        return reduce(state, actions, meter: &meter)
    }

    /// Rule (single mode): closing leaves the section open when `collapsible` is false.
    private static func closeIfCollapsible(_ state: inout SectionsState) {
        if state.collapsible { state.open = nil }
    }
}

/// One sections toggle request: `sections` in order, `expanded` as the client sends it (any order), configuration, and `actions`.
public struct SectionsScenario: Equatable, Sendable {
    public typealias Model = SectionsReferenceModel<String>

    public var sections: [String]
    public var expanded: [String]
    public var mode: Model.Mode
    public var collapsible: Bool
    public var actions: [Model.Action]

    public init(sections: [String], expanded: [String], mode: Model.Mode, collapsible: Bool, actions: [Model.Action]) {
        self.sections = sections
        self.expanded = expanded
        self.mode = mode
        self.collapsible = collapsible
        self.actions = actions
    }

    public var model: Model {
        Model(sections: sections, open: Set(expanded), mode: mode, collapsible: collapsible)
    }
}

// Reference model of the sections toggle, written from the contract alone and sharing no code with
// TrellisCore, so that the randomized tests (core and endpoint) compare two independent readings.
// Like the seed, it keeps a Set of open section ids; section order comes from `sections`.

public struct SectionsReferenceModel<ID: Hashable & Sendable>: Equatable, Sendable {
    public enum Mode: String, Equatable, Sendable, CaseIterable {
        case multiple
        case single
    }

    public enum Action: Equatable, Sendable {
        case toggle(ID)
        case expand(ID)
        case collapse(ID)
        case expandAll
        case collapseAll

        public var type: String {
            switch self {
            case .toggle: "toggle"
            case .expand: "expand"
            case .collapse: "collapse"
            case .expandAll: "expandAll"
            case .collapseAll: "collapseAll"
            }
        }

        public var section: ID? {
            switch self {
            case .toggle(let id), .expand(let id), .collapse(let id): id
            case .expandAll, .collapseAll: nil
            }
        }
    }

    public let sections: [ID]
    public let mode: Mode
    public let collapsible: Bool
    public private(set) var open: Set<ID>

    public init(sections: [ID], open: Set<ID>, mode: Mode, collapsible: Bool) {
        self.sections = sections
        self.open = open
        self.mode = mode
        self.collapsible = collapsible
    }

    public mutating func apply(_ action: Action) {
        switch action {
        case .toggle(let id):
            if open.contains(id) {
                close(id)
            } else {
                openSection(id)
            }
        case .expand(let id):
            openSection(id)
        case .collapse(let id):
            if open.contains(id) {
                close(id)
            }
        case .expandAll:
            // Single mode rejects expandAll with 422; the core treats it as a no-op.
            if mode == .multiple {
                open = Set(sections)
            }
        case .collapseAll:
            for id in open {
                close(id)
            }
        }
    }

    private mutating func openSection(_ id: ID) {
        switch mode {
        case .multiple: open.insert(id)
        case .single: open = [id]
        }
    }

    private mutating func close(_ id: ID) {
        if mode == .single && !collapsible {
            return
        }
        open.remove(id)
    }

    // What the response shows.

    public var expandedInOrder: [ID] {
        sections.filter { open.contains($0) }
    }

    public func changed(since initialOpen: Set<ID>) -> [ID] {
        sections.filter { open.contains($0) != initialOpen.contains($0) }
    }

    public func headerDisabled(_ id: ID) -> Bool {
        mode == .single && !collapsible && open.contains(id)
    }

    public func icon(_ id: ID) -> String {
        open.contains(id) ? "chevron.up" : "chevron.down"
    }

    public func showDivider(_ id: ID) -> Bool {
        !open.contains(id)
    }
}

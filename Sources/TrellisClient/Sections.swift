extension TrellisClient {
    /// One collapsible section: its id and its items (any JSON, echoed while open).
    public struct Section: Sendable, Equatable, Codable {
        public var id: TrellisID
        public var items: [TrellisValue]?

        public init(id: TrellisID, items: [TrellisValue]? = nil) {
            self.id = id
            self.items = items
        }
    }

    /// `multiple` keeps any set of open sections; `single` is an accordion.
    public enum SectionsMode: String, Sendable, Codable, CaseIterable {
        case multiple, single
    }

    /// One step of the sections' state machine.
    public struct SectionsAction: Sendable, Equatable, Codable {
        /// The action's `type` member.
        public enum Kind: String, Sendable, Codable, CaseIterable {
            case toggle, expand, collapse, expandAll, collapseAll
        }

        public var type: Kind
        /// The section it acts on; nil for expandAll and collapseAll.
        public var section: TrellisID?

        public init(type: Kind, section: TrellisID? = nil) {
            self.type = type
            self.section = section
        }

        public static func toggle(_ section: TrellisID) -> Self { Self(type: .toggle, section: section) }
        public static func expand(_ section: TrellisID) -> Self { Self(type: .expand, section: section) }
        public static func collapse(_ section: TrellisID) -> Self { Self(type: .collapse, section: section) }
        public static let expandAll = Self(type: .expandAll)
        public static let collapseAll = Self(type: .collapseAll)
    }

    /// The body of POST /v1/sections/toggle: the sections, which are open, and `toggle` or `actions` (not both).
    public struct SectionsToggleRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = SectionsToggleResponse
        public static let path = "/v1/sections/toggle"

        /// In display order; ids unique.
        public var sections: [Section]
        /// The ids open now (default none).
        public var expanded: [TrellisID]?
        public var mode: SectionsMode?
        /// Single mode only: false keeps the open section from closing (default true).
        public var collapsible: Bool?
        /// One section to toggle (a tap on its header).
        public var toggle: TrellisID?
        /// Applied in order.
        public var actions: [SectionsAction]?

        public init(
            sections: [Section], expanded: [TrellisID]? = nil, mode: SectionsMode? = nil, collapsible: Bool? = nil,
            toggle: TrellisID? = nil, actions: [SectionsAction]? = nil
        ) {
            self.sections = sections
            self.expanded = expanded
            self.mode = mode
            self.collapsible = collapsible
            self.toggle = toggle
            self.actions = actions
        }
    }

    /// The answer of POST /v1/sections/toggle: the final state, sections in request order.
    public struct SectionsToggleResponse: Sendable, Equatable, Codable {
        /// How one section is drawn.
        public struct SectionView: Sendable, Equatable, Codable {
            public var id: TrellisID
            public var expanded: Bool
            /// True when activating the header can't change anything (for aria-disabled or `.disabled`).
            public var headerDisabled: Bool
            /// `chevron.up` or `chevron.down` (SF Symbol names).
            public var icon: String
            /// True when collapsed.
            public var showDivider: Bool
            /// The items while open, empty while closed.
            public var items: [TrellisValue]
            /// The full number of items, open or not.
            public var itemCount: Int

            public init(
                id: TrellisID, expanded: Bool, headerDisabled: Bool, icon: String, showDivider: Bool, items: [TrellisValue], itemCount: Int
            ) {
                self.id = id
                self.expanded = expanded
                self.headerDisabled = headerDisabled
                self.icon = icon
                self.showDivider = showDivider
                self.items = items
                self.itemCount = itemCount
            }
        }

        /// The open ids, in section order.
        public var expanded: [TrellisID]
        /// The ids whose state differs from the request's `expanded`, in section order.
        public var changed: [TrellisID]
        public var sections: [SectionView]

        public init(expanded: [TrellisID], changed: [TrellisID], sections: [SectionView]) {
            self.expanded = expanded
            self.changed = changed
            self.sections = sections
        }
    }
}

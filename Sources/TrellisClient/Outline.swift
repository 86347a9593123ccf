extension TrellisClient {
    /// One node of an outline tree: its id, and its children (nested form) or its parent (flat form).
    ///
    /// The request writes each node under its `idKey`, `childrenKey` and `parentKey` (default `id`,
    /// `children`, `parent`). Nested form: `children` nil is a leaf, an array (even empty) makes the
    /// node expandable. Flat form (the request's `parentKey` set): `parent` nil is a root.
    /// `label` (written under the search's `labelKey`, default `label`) is what a search looks at.
    public struct OutlineNode: Sendable, Equatable {
        public var id: TrellisID
        public var children: [OutlineNode]?
        public var parent: TrellisID?
        public var label: String?

        public init(id: TrellisID, label: String? = nil, children: [OutlineNode]? = nil) {
            self.id = id
            self.label = label
            self.children = children
        }

        public init(id: TrellisID, label: String? = nil, parent: TrellisID?) {
            self.id = id
            self.label = label
            self.parent = parent
        }
    }

    /// A label search (both outline endpoints): the nodes' `label`s compared with `query` after folding
    /// case and diacritics (unless asked not to); see the service's docs/outline.md for the rules.
    public struct OutlineSearch: Sendable, Equatable, Codable {
        /// 1 to 256 Unicode scalars.
        public var query: String
        /// Where the query must occur: "substring" (default), "prefix" or "words".
        public var mode: String?
        public var caseSensitive: Bool?
        public var diacriticSensitive: Bool?
        /// The member holding each node's label (default `label`, at most 256 bytes): the request writes the
        /// nodes' labels under it.
        public var labelKey: String?

        public init(
            query: String, mode: String? = nil, caseSensitive: Bool? = nil, diacriticSensitive: Bool? = nil, labelKey: String? = nil
        ) {
            self.query = query
            self.mode = mode
            self.caseSensitive = caseSensitive
            self.diacriticSensitive = diacriticSensitive
            self.labelKey = labelKey
        }
    }

    /// Where a matching node's label matched: half-open [start, end) pairs in UTF-16 code units (`NSRange`).
    public struct OutlineMatch: Sendable, Equatable, Codable {
        public var ranges: [[Int]]

        public init(ranges: [[Int]]) {
            self.ranges = ranges
        }
    }

    /// The tree as both outline endpoints take it: the nodes and the keys they are written under.
    public struct OutlineTree: Sendable, Equatable {
        /// Root nodes (nested form) or every node (flat form).
        public var nodes: [OutlineNode]
        public var idKey: String?
        public var childrenKey: String?
        /// Selects the flat form: each node's parent is written under this key.
        public var parentKey: String?

        /// The nested form: roots with their children.
        public init(nodes: [OutlineNode], idKey: String? = nil, childrenKey: String? = nil) {
            self.nodes = nodes
            self.idKey = idKey
            self.childrenKey = childrenKey
        }

        /// The flat form: every node names its parent (nil for a root) under `parentKey`.
        public init(flat nodes: [OutlineNode], idKey: String? = nil, parentKey: String = "parent") {
            self.nodes = nodes
            self.idKey = idKey
            self.parentKey = parentKey
        }

        var keys: OutlineKeys {
            OutlineKeys(id: idKey ?? "id", children: childrenKey ?? "children", parent: parentKey)
        }
    }

    /// The body of POST /v1/outline/expansion: the tree and one selection or several.
    public struct OutlineExpansionRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = OutlineExpansionResponse
        public static let path = "/v1/outline/expansion"

        public var tree: OutlineTree
        public var selection: TrellisID?
        /// Several selections, for multi-select pickers (not together with `selection`).
        public var selections: [TrellisID]?
        /// Expands the way to every match instead (not together with a selection); the answer has `matches`.
        public var search: OutlineSearch?

        public init(tree: OutlineTree, selection: TrellisID? = nil, selections: [TrellisID]? = nil, search: OutlineSearch? = nil) {
            self.tree = tree
            self.selection = selection
            self.selections = selections
            self.search = search
        }

        private enum CodingKeys: String, CodingKey { case selection, selections, search }

        public init(from decoder: any Decoder) throws {
            tree = try OutlineTree(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            selection = try container.decodeIfPresent(TrellisID.self, forKey: .selection)
            selections = try container.decodeIfPresent([TrellisID].self, forKey: .selections)
            search = try container.decodeIfPresent(OutlineSearch.self, forKey: .search)
        }

        public func encode(to encoder: any Encoder) throws {
            try tree.encode(to: encoder, labelKey: search?.labelKey)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(selection, forKey: .selection)
            try container.encodeIfPresent(selections, forKey: .selections)
            try container.encodeIfPresent(search, forKey: .search)
        }
    }

    /// How a picker's rows wrap their labels: each label laid out as a list's paragraph at `width` less the row's
    /// depth × `indent` and its padding; with `viewportHeight`, the answer says where to scroll to show the selection.
    public struct OutlineRowHeights: Sendable, Equatable, Codable {
        public var font: TextFont
        /// @font-face rules over stored fonts that `font.family` may name.
        public var fontFaces: [FontFaceRule]?
        public var width: Double
        /// The member each node's label is read from (default "label"; the tree's labels are written under it).
        public var labelKey: String?
        public var indent: Double?
        public var padding: ListPadding?
        public var minHeight: Double?
        public var gap: Double?
        public var viewportHeight: Double?
        public var scrollOffset: Double?
        public var properties: ParagraphProperties

        public init(
            font: TextFont, width: Double, labelKey: String? = nil, indent: Double? = nil, padding: ListPadding? = nil,
            minHeight: Double? = nil, gap: Double? = nil, viewportHeight: Double? = nil, scrollOffset: Double? = nil,
            properties: ParagraphProperties = .init(), fontFaces: [FontFaceRule]? = nil
        ) {
            self.font = font
            self.fontFaces = fontFaces
            self.width = width
            self.labelKey = labelKey
            self.indent = indent
            self.padding = padding
            self.minHeight = minHeight
            self.gap = gap
            self.viewportHeight = viewportHeight
            self.scrollOffset = scrollOffset
            self.properties = properties
        }

        private enum Key: String, CodingKey { case font, fontFaces, width, labelKey, indent, padding, minHeight, gap, viewportHeight, scrollOffset }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            font = try container.decode(TextFont.self, forKey: .font)
            fontFaces = try container.decodeIfPresent([FontFaceRule].self, forKey: .fontFaces)
            width = try container.decode(Double.self, forKey: .width)
            labelKey = try container.decodeIfPresent(String.self, forKey: .labelKey)
            indent = try container.decodeIfPresent(Double.self, forKey: .indent)
            padding = try container.decodeIfPresent(ListPadding.self, forKey: .padding)
            minHeight = try container.decodeIfPresent(Double.self, forKey: .minHeight)
            gap = try container.decodeIfPresent(Double.self, forKey: .gap)
            viewportHeight = try container.decodeIfPresent(Double.self, forKey: .viewportHeight)
            scrollOffset = try container.decodeIfPresent(Double.self, forKey: .scrollOffset)
            properties = try ParagraphProperties(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(font, forKey: .font)
            try container.encodeIfPresent(fontFaces, forKey: .fontFaces)
            try container.encode(width, forKey: .width)
            try container.encodeIfPresent(labelKey, forKey: .labelKey)
            try container.encodeIfPresent(indent, forKey: .indent)
            try container.encodeIfPresent(padding, forKey: .padding)
            try container.encodeIfPresent(minHeight, forKey: .minHeight)
            try container.encodeIfPresent(gap, forKey: .gap)
            try container.encodeIfPresent(viewportHeight, forKey: .viewportHeight)
            try container.encodeIfPresent(scrollOffset, forKey: .scrollOffset)
            try properties.encode(to: encoder)
        }
    }

    /// The answer of POST /v1/outline/expansion.
    public struct OutlineExpansionResponse: Sendable, Equatable, Codable {
        /// One selection's path from its root; `found` false (and `path` empty) when it is not in the tree.
        public struct Path: Sendable, Equatable, Codable {
            public var id: TrellisID
            public var found: Bool
            /// Root → selection.
            public var path: [TrellisID]

            public init(id: TrellisID, found: Bool, path: [TrellisID]) {
                self.id = id
                self.found = found
                self.path = path
            }
        }

        /// One matching node of a search and where its label matched.
        public struct Match: Sendable, Equatable, Codable {
            public var id: TrellisID
            /// Half-open [start, end) pairs in UTF-16 code units of the label.
            public var ranges: [[Int]]

            public init(id: TrellisID, ranges: [[Int]]) {
                self.id = id
                self.ranges = ranges
            }
        }

        /// The strict ancestors of every found selection (or match), without duplicates, in tree pre-order.
        public var expand: [TrellisID]
        /// One entry per selection, in request order; empty with a search.
        public var paths: [Path]
        /// With a search, the matching nodes in tree pre-order; nil without one.
        public var matches: [Match]?

        public init(expand: [TrellisID], paths: [Path], matches: [Match]? = nil) {
            self.expand = expand
            self.paths = paths
            self.matches = matches
        }

        private enum CodingKeys: String, CodingKey { case expand, paths, matches }

        /// Rule: a search's answer has no `paths`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            expand = try container.decode([TrellisID].self, forKey: .expand)
            paths = try container.decodeIfPresent([Path].self, forKey: .paths) ?? []
            matches = try container.decodeIfPresent([Match].self, forKey: .matches)
        }
    }

    /// The body of POST /v1/outline/rows: the tree, the selection, the expanded ids and an optional window.
    public struct OutlineRowsRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = OutlineRowsResponse
        public static let path = "/v1/outline/rows"

        public var tree: OutlineTree
        public var selection: TrellisID?
        /// The expanded ids; nil means the expansion set of `selection` (what a picker shows when it opens).
        public var expanded: [TrellisID]?
        /// The first visible row of the window (default 0).
        public var offset: Int?
        /// Rows in the window; nil for all.
        public var limit: Int?
        /// Whether to answer the picker's "No Selection" row (default true).
        public var includeNoSelection: Bool?
        /// Shows only the matches and the way to them, opened; each row then has `match`.
        public var search: OutlineSearch?
        /// Lays every visible row's label out: each row then has `height` and `offset`.
        public var rowHeights: OutlineRowHeights?

        public init(
            tree: OutlineTree, selection: TrellisID? = nil, expanded: [TrellisID]? = nil, offset: Int? = nil,
            limit: Int? = nil, includeNoSelection: Bool? = nil, search: OutlineSearch? = nil, rowHeights: OutlineRowHeights? = nil
        ) {
            self.rowHeights = rowHeights
            self.tree = tree
            self.selection = selection
            self.expanded = expanded
            self.offset = offset
            self.limit = limit
            self.includeNoSelection = includeNoSelection
            self.search = search
        }

        private enum CodingKeys: String, CodingKey { case selection, expanded, offset, limit, includeNoSelection, search, rowHeights }

        public init(from decoder: any Decoder) throws {
            tree = try OutlineTree(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            selection = try container.decodeIfPresent(TrellisID.self, forKey: .selection)
            expanded = try container.decodeIfPresent([TrellisID].self, forKey: .expanded)
            offset = try container.decodeIfPresent(Int.self, forKey: .offset)
            limit = try container.decodeIfPresent(Int.self, forKey: .limit)
            includeNoSelection = try container.decodeIfPresent(Bool.self, forKey: .includeNoSelection)
            search = try container.decodeIfPresent(OutlineSearch.self, forKey: .search)
            rowHeights = try container.decodeIfPresent(OutlineRowHeights.self, forKey: .rowHeights)
        }

        public func encode(to encoder: any Encoder) throws {
            try tree.encode(to: encoder, labelKey: search?.labelKey ?? rowHeights?.labelKey)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(selection, forKey: .selection)
            try container.encodeIfPresent(expanded, forKey: .expanded)
            try container.encodeIfPresent(offset, forKey: .offset)
            try container.encodeIfPresent(limit, forKey: .limit)
            try container.encodeIfPresent(includeNoSelection, forKey: .includeNoSelection)
            try container.encodeIfPresent(search, forKey: .search)
            try container.encodeIfPresent(rowHeights, forKey: .rowHeights)
        }
    }

    /// The answer of POST /v1/outline/rows.
    public struct OutlineRowsResponse: Sendable, Equatable, Codable {
        /// One visible row.
        public struct Row: Sendable, Equatable, Codable {
            /// Position among all visible rows, also inside a window.
            public var index: Int
            public var id: TrellisID
            public var depth: Int
            /// The parent's id, nil for a root.
            public var parent: TrellisID?
            public var expandable: Bool
            /// Expandable and in the expanded set.
            public var expanded: Bool
            public var selected: Bool
            /// With a search: where the label matched; nil for an ancestor on the way (and without a search).
            public var match: OutlineMatch?
            /// With row heights: the row's height and its top among all visible rows.
            public var height: Double?
            public var offset: Double?

            public init(
                index: Int, id: TrellisID, depth: Int, parent: TrellisID? = nil, expandable: Bool, expanded: Bool, selected: Bool,
                match: OutlineMatch? = nil, height: Double? = nil, offset: Double? = nil
            ) {
                self.height = height
                self.offset = offset
                self.index = index
                self.id = id
                self.depth = depth
                self.parent = parent
                self.expandable = expandable
                self.expanded = expanded
                self.selected = selected
                self.match = match
            }
        }

        /// The picker's "No Selection" row.
        public struct NoSelection: Sendable, Equatable, Codable {
            public var selected: Bool

            public init(selected: Bool) {
                self.selected = selected
            }
        }

        public var rows: [Row]
        /// Visible rows before windowing.
        public var totalRows: Int
        /// The selected node's row among all visible rows; nil when not visible or no selection.
        public var selectedRow: Int?
        /// Absent when the request's `includeNoSelection` was false.
        public var noSelection: NoSelection?
        /// With a search, the matching nodes in the whole tree.
        public var matchCount: Int?
        /// With row heights: every visible row stacked, and (with a viewport) where to scroll to show the selected row.
        public var totalHeight: Double?
        public var selectedScrollOffset: Double?

        public init(rows: [Row], totalRows: Int, selectedRow: Int? = nil, noSelection: NoSelection? = nil, matchCount: Int? = nil) {
            self.rows = rows
            self.totalRows = totalRows
            self.selectedRow = selectedRow
            self.noSelection = noSelection
            self.matchCount = matchCount
        }
    }
}

/// The member names an outline request writes its nodes with.
struct OutlineKeys {
    var id: String
    var children: String
    var parent: String?
    /// Where each node's label is written: the search's `labelKey` (default `label`).
    var label = "label"
}

/// A coding key made from a string at run time, for the tree's client-chosen member names.
struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension TrellisClient.OutlineTree: Codable {
    private enum CodingKeys: String, CodingKey { case nodes, idKey, childrenKey, parentKey }

    /// Rule: the keys are read first, then every node under them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idKey = try container.decodeIfPresent(String.self, forKey: .idKey)
        childrenKey = try container.decodeIfPresent(String.self, forKey: .childrenKey)
        parentKey = try container.decodeIfPresent(String.self, forKey: .parentKey)
        let keys = OutlineKeys(id: idKey ?? "id", children: childrenKey ?? "children", parent: parentKey)
        var list = try container.nestedUnkeyedContainer(forKey: .nodes)
        var nodes: [TrellisClient.OutlineNode] = []
        while !list.isAtEnd {
            nodes.append(try TrellisClient.OutlineNode(from: list.superDecoder(), keys: keys))
        }
        self.nodes = nodes
    }

    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, labelKey: nil)
    }

    /// The tree with each node's label under `labelKey` (a search's; nil: `label`).
    func encode(to encoder: any Encoder, labelKey: String?) throws {
        var keys = keys
        if let labelKey { keys.label = labelKey }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(idKey, forKey: .idKey)
        try container.encodeIfPresent(childrenKey, forKey: .childrenKey)
        try container.encodeIfPresent(parentKey, forKey: .parentKey)
        var list = container.nestedUnkeyedContainer(forKey: .nodes)
        for node in nodes {
            try node.encode(to: list.superEncoder(), keys: keys)
        }
    }
}

extension TrellisClient.OutlineNode {
    /// Rule: nested form writes `children` (when not nil), flat form writes `parent` (null for a root).
    func encode(to encoder: any Encoder, keys: OutlineKeys) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        try container.encode(id, forKey: DynamicKey(keys.id))
        // Rule: the label goes under its key unless one of the tree's keys already uses that name.
        if ![keys.id, keys.children, keys.parent].contains(keys.label) {
            try container.encodeIfPresent(label, forKey: DynamicKey(keys.label))
        }
        if let parentKey = keys.parent {
            try container.encode(parent, forKey: DynamicKey(parentKey))
        } else if let children {
            var list = container.nestedUnkeyedContainer(forKey: DynamicKey(keys.children))
            for child in children {
                try child.encode(to: list.superEncoder(), keys: keys)
            }
        }
    }

    init(from decoder: any Decoder, keys: OutlineKeys) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        id = try container.decode(TrellisID.self, forKey: DynamicKey(keys.id))
        if ![keys.id, keys.children, keys.parent].contains("label") {
            label = try? container.decodeIfPresent(String.self, forKey: DynamicKey("label"))
        }
        if let parentKey = keys.parent {
            parent = try container.decodeIfPresent(TrellisID.self, forKey: DynamicKey(parentKey))
        } else if container.contains(DynamicKey(keys.children)), try !container.decodeNil(forKey: DynamicKey(keys.children)) {
            var list = try container.nestedUnkeyedContainer(forKey: DynamicKey(keys.children))
            var children: [TrellisClient.OutlineNode] = []
            while !list.isAtEnd {
                children.append(try TrellisClient.OutlineNode(from: list.superDecoder(), keys: keys))
            }
            self.children = children
        }
    }
}

import TrellisJSON

/// POST /v1/outline/rows: the tree input, the selection, the expanded ids, the window and the search.
struct OutlineRowsRequest: FeatureRequest {
    let input: OutlineTreeInput
    /// The requested id; nil when absent or null.
    let selection: JSONValue?
    /// Node indices of the `expanded` ids that are in the tree; nil when absent or null.
    let expanded: [Int]?
    let offset: Int
    let limit: Int?
    let includeNoSelection: Bool
    /// The search; nil when absent or null.
    let search: OutlineSearchRequest?
    /// How each row's label wraps (the rows' heights and offsets); nil when absent or null.
    let rowHeights: OutlineRowHeightsInput?

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = body.fields(OutlineMember.self)
        let input = OutlineTreeInput(members, &problems)
        var selection: JSONValue?
        if let value = members.optional(OutlineMember.selection), ClientID.isValid(value, &problems) {
            selection = value
        }
        var expandedIds: [JSONValue]?
        if let value = members.optional(OutlineMember.expanded), let elements = value.array(&problems, maxCount: OutlineLimits.maxExpanded) {
            expandedIds = elements.filter { ClientID.isValid($0, &problems) }
        }
        // Rule: a negative offset or limit → 422.
        let offset = members.optional(OutlineMember.offset).map { $0.integer(&problems, min: 0) ?? 0 } ?? 0
        let limit = members.optional(OutlineMember.limit).flatMap { $0.integer(&problems, min: 0) }
        let includeNoSelection = members.optional(OutlineMember.includeNoSelection).map { $0.boolean(&problems) ?? true } ?? true
        let search = members.optional(OutlineMember.search).flatMap { OutlineSearchRequest(reading: $0, context.folding, &problems) }
        let rowHeights = members.optional(OutlineMember.rowHeights).flatMap { OutlineRowHeightsInput(reading: $0, context, &problems) }
        guard let input, problems.count == before else { return nil }
        self.input = input
        self.selection = selection
        // Rule: ids in `expanded` that are not in the tree are ignored.
        self.expanded = expandedIds.map { $0.compactMap { input.index(of: $0) } }
        self.offset = offset
        self.limit = limit
        self.includeNoSelection = includeNoSelection
        self.search = search
        self.rowHeights = rowHeights
    }
}

import TrellisJSON

/// POST /v1/outline/rows: the tree input, the selection, the expanded ids, the window and the search.
struct OutlineRowsRequest {
    let input: OutlineTreeInput
    /// The requested id; nil when absent or null.
    let selection: JSONValue?
    /// Node indices of the `expanded` ids that are in the tree; nil when absent or null.
    let expanded: [Int]?
    let offset: Int
    let limit: Int?
    let includeNoSelection: Bool
    /// The search; nil when absent or null.
    let search: OutlineSearchInput?

    /// Reads the body, recording every problem with its pointer; nil when there was any.
    static func read(_ body: JSONValue, _ problems: inout Problems) -> OutlineRowsRequest? {
        OutlineRowsRequest(reading: body, &problems)
    }

    private init?(reading body: JSONValue, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let input = OutlineTreeInput(body, &problems)
        var selection: JSONValue?
        if let value = body.optional("selection"), ClientID.isValid(value, &problems) {
            selection = value
        }
        var expandedIds: [JSONValue]?
        if let value = body.optional("expanded"), let elements = value.array(&problems, maxCount: OutlineLimits.maxExpanded) {
            expandedIds = elements.filter { ClientID.isValid($0, &problems) }
        }
        // Rule: a negative offset or limit → 422.
        let offset = body.optional("offset").map { $0.integer(&problems, min: 0) ?? 0 } ?? 0
        let limit = body.optional("limit").flatMap { $0.integer(&problems, min: 0) }
        let includeNoSelection = body.optional("includeNoSelection").map { $0.boolean(&problems) ?? true } ?? true
        let search = OutlineSearchInput.read(body, &problems)
        guard let input, problems.count == before else { return nil }
        self.input = input
        self.selection = selection
        // Rule: ids in `expanded` that are not in the tree are ignored.
        self.expanded = expandedIds.map { $0.compactMap { input.index(of: $0) } }
        self.offset = offset
        self.limit = limit
        self.includeNoSelection = includeNoSelection
        self.search = search
    }
}

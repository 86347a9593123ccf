import TrellisJSON

/// POST /v1/outline/expansion: the tree input plus `selection`, `selections` or `search`.
struct OutlineExpansionRequest: FeatureRequest {
    let input: OutlineTreeInput
    /// The requested ids in request order; empty for no selection.
    let selections: [JSONValue]
    /// Each requested id's node index, or nil when it is not in the tree.
    let indices: [Int?]
    /// The search; nil when absent or null.
    let search: OutlineSearchRequest?

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = body.fields(OutlineMember.self)
        let input = OutlineTreeInput(members, &problems)
        let single = members.optional(OutlineMember.selection)
        let many = members.optional(OutlineMember.selections)
        var selections: [JSONValue] = []
        let searchValue = members.optional(OutlineMember.search)
        let search = searchValue.flatMap { OutlineSearchRequest(reading: $0, context.folding, &problems) }
        if searchValue != nil && (single != nil || many != nil) {
            // Rule: search with selection or selections → 422.
            problems.add(at: body, member: "search", "cannot be sent together with selection or selections; send one of them")
        }
        if single != nil && many != nil {
            // Rule: both selection and selections → 422.
            problems.add(at: body, member: "selections", "cannot be sent together with selection; send one of them")
        } else if let single {
            if ClientID.isValid(single, &problems) { selections = [single] }
        } else if let many, let elements = many.array(&problems, maxCount: OutlineLimits.maxSelections) {
            for element in elements {
                if ClientID.isValid(element, &problems) { selections.append(element) }
            }
        }
        guard let input, problems.count == before else { return nil }
        let indices = selections.map { input.index(of: $0) }
        // Rule: `paths` grow as selections × depth, so their total length is capped.
        let pathIds = indices.reduce(0) { total, index in total + (index.map { input.tree.depth(of: $0) + 1 } ?? 0) }
        if pathIds > OutlineLimits.maxPathIds, let value = many ?? single {
            problems.add(
                at: value,
                "would need paths of \(pathIds) ids in all, more than the limit of \(OutlineLimits.maxPathIds); "
                    + "send fewer or shallower selections")
            return nil
        }
        self.input = input
        self.selections = selections
        self.indices = indices
        self.search = search
    }
}

import TrellisCore
import TrellisJSON

/// The members of both outline requests' bodies (each endpoint reads its own).
enum OutlineMember: Int, JSONMember {
    case nodes, idKey, childrenKey, parentKey, selection, selections, expanded, offset, limit, includeNoSelection, search, rowHeights
    static let keys = JSONKeys(OutlineMember.self)
}

/// The tree input: the client's `nodes`, nested or flat, read into an OutlineTree with the ids by index.
struct OutlineTreeInput {
    let tree: OutlineTree
    /// The client's id of each node index, exactly as given.
    let ids: IDTable
    /// Tape index of each node's object, by node index (where a search reads the labels).
    let positions: [UInt32]
    /// Any value of the request's document, to read values at those positions.
    let document: JSONValue

    /// The node whose id equals this (valid) id value.
    func index(of id: JSONValue) -> Int? {
        ids.entry(of: id)
    }

    /// Writes the id of a node back exactly as the client gave it.
    func writeID(of node: Int, to json: inout JSONWriter) {
        ids.write(node, to: &json)
    }

    /// Reads `idKey`, `childrenKey`, `parentKey` and `nodes` of the body's `members`, recording every problem; nil
    /// when there was one.
    init?(_ members: JSONFields, _ problems: inout Problems) {
        let before = problems.count
        let body = members.object
        let idKey = Self.key(members.optional(OutlineMember.idKey), &problems) ?? "id"
        let childrenKey = Self.key(members.optional(OutlineMember.childrenKey), &problems) ?? "children"
        let parentKey = Self.key(members.optional(OutlineMember.parentKey), &problems)
        if let parentKey, parentKey == idKey {
            problems.add(at: body, member: "parentKey", "must differ from idKey")
        } else if parentKey == nil, childrenKey == idKey {
            problems.add(at: body, member: "childrenKey", "must differ from idKey")
        }
        guard let nodes = members.required(OutlineMember.nodes, &problems), problems.count == before else { return nil }
        // A node takes at least four tape words ({, key, id, }): an upper bound on the nodes, nested ones
        // included, so the id table never rehashes while reading.
        let expectedCount = parentKey == nil ? min((nodes.end - nodes.index) / 4, OutlineLimits.maxNodes) : nodes.count
        var reader = OutlineTreeReader(document: nodes, idKey: idKey, expectedCount: expectedCount)
        if let parentKey {
            guard let elements = nodes.array(&problems, maxCount: OutlineLimits.maxNodes) else { return nil }
            reader.readFlat(elements, count: nodes.count, parentKey: parentKey, &problems)
        } else {
            guard nodes.array(&problems) != nil else { return nil }
            reader.readNested(nodes, childrenKey: childrenKey, &problems)
        }
        guard let tree = reader.tree, problems.count == before else { return nil }
        self.tree = tree
        self.ids = reader.ids
        self.positions = reader.positions
        self.document = nodes
    }

    /// An optional member naming a key; nil when absent, null, not a string or longer than
    /// `OutlineLimits.maxKeyBytes` (then a problem is recorded).
    static func key(_ value: JSONValue?, _ problems: inout Problems) -> String? {
        guard let value, let key = value.text(&problems) else { return nil }
        // Rule: member names are short, so no pointer or answer repeats a long one.
        guard key.utf8.count <= OutlineLimits.maxKeyBytes else {
            problems.add(at: value, "must be at most \(OutlineLimits.maxKeyBytes) bytes of UTF-8")
            return nil
        }
        return key
    }
}

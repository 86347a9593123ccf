import TrellisCore
import TrellisJSON

/// The tree input: one pass over `nodes` on the parsed document, giving every node an index and recording every problem.
struct OutlineTreeReader {
    /// Any value of the request's document: positions kept below are read back through it.
    let document: JSONValue
    let idKey: String
    /// Each node's id, by node index.
    private(set) var ids: IDTable
    private(set) var tree: OutlineTree?
    private var nodes: [OutlineNode] = []
    /// Tape index of each node's object, only read to point at problems.
    private(set) var positions: [UInt32] = []

    init(document: JSONValue, idKey: String, expectedCount: Int = 16) {
        self.document = document
        self.idKey = idKey
        ids = IDTable(in: document, expectedCount: expectedCount)
        nodes.reserveCapacity(expectedCount)
        positions.reserveCapacity(expectedCount)
    }

    /// The members of a node in the nested form with the default keys, made once.
    static let nestedKeys = JSONKeys(["id", "children"])

    /// Nested form: `roots` is the `nodes` array; children under `childrenKey`.
    mutating func readNested(_ roots: JSONValue, childrenKey: String, _ problems: inout Problems) {
        let before = problems.count
        let keys = idKey == "id" && childrenKey == "children" ? Self.nestedKeys : JSONKeys([idKey, childrenKey])
        walkNested(roots, keys, &problems)
        guard problems.count == before else { return }
        build(parentValues: nil, &problems)
    }

    /// `keys`: the id's and the children's member names.
    private mutating func walkNested(_ roots: JSONValue, _ keys: JSONKeys, _ problems: inout Problems) {
        // Rule: an explicit stack instead of recursion, so any depth is safe; nodes come out in pre-order.
        var stack: [(elements: JSONElements, parent: Int32)] = [(roots.elements, -1)]
        stack.reserveCapacity(16)
        while !stack.isEmpty {
            guard let node = stack[stack.count - 1].elements.next() else {
                stack.removeLast()
                continue
            }
            let parent = stack[stack.count - 1].parent
            guard node.kind == .object else {
                problems.add(at: node, "must be an object")
                continue
            }
            // Rule: at most OutlineLimits.maxNodes nodes, nested ones included.
            guard ids.count < OutlineLimits.maxNodes else {
                problems.add(at: roots, "must hold at most \(OutlineLimits.maxNodes) nodes, counting nested ones")
                return
            }
            let index = Int32(ids.count)
            let members = node.fields(keys)
            let idValue = members[0]
            let children = members[1].flatMap { $0.isNull ? nil : $0 }
            // Rule: children absent or null → a leaf; an array, even an empty one → expandable.
            append(node, idValue: idValue, parent: parent, hasChildrenMember: children?.kind == .array, &problems)
            if let children {
                if children.kind == .array {
                    stack.append((children.elements, index))
                } else {
                    problems.add(at: children, "must be an array or null")
                }
            }
        }
    }

    /// Flat form: every node in one array, naming its parent's id under `parentKey`.
    mutating func readFlat(_ elements: JSONElements, count: Int, parentKey: String, _ problems: inout Problems) {
        nodes.reserveCapacity(count)
        positions.reserveCapacity(count)
        var parentValues = [Int32]()
        parentValues.reserveCapacity(count)
        let keys = JSONKeys([idKey, parentKey])
        for element in elements {
            guard element.kind == .object else {
                problems.add(at: element, "must be an object")
                _ = ids.append(nil)
                nodes.append(OutlineNode(parent: -1, hasChildrenMember: false))
                positions.append(UInt32(element.index))
                parentValues.append(-1)
                continue
            }
            let members = element.fields(keys)
            // Rule: in flat form a node is expandable when it has a child, so no children member is read.
            append(element, idValue: members[0], parent: -1, hasChildrenMember: false, &problems)
            parentValues.append(Int32(members[1]?.index ?? -1))
        }
        // Rule: parents may follow their children, so they are resolved once every id is known.
        for i in 0..<parentValues.count where parentValues[i] >= 0 {
            let value = document.value(at: Int(parentValues[i]))
            // Rule: a parent absent or null makes a root.
            guard !value.isNull, ClientID.isValid(value, &problems) else { continue }
            if let parent = ids.entry(of: value) {
                nodes[i].parent = Int32(parent)
            } else {
                problems.add(at: value, "names the parent \(ClientID.quoted(value)), which is not the id of any node")
            }
        }
        build(parentValues: parentValues, &problems)
    }

    private mutating func append(
        _ node: JSONValue, idValue: JSONValue?, parent: Int32, hasChildrenMember: Bool, _ problems: inout Problems
    ) {
        var id: JSONValue?
        if let idValue {
            if ClientID.isValid(idValue, &problems) { id = idValue }
        } else {
            problems.add(at: node, member: idKey, "is required")
        }
        if let first = ids.append(id), let id {
            // Rule: a duplicate id is a problem that names the first occurrence's pointer.
            problems.add(
                at: id, "duplicates the id \(ClientID.quoted(id)) first given at ",
                citing: document.value(at: Int(positions[first])), member: idKey)
        }
        nodes.append(OutlineNode(parent: parent, hasChildrenMember: hasChildrenMember))
        positions.append(UInt32(node.index))
    }

    /// Rule: in flat form each cycle of parents is one problem, at the parent member of its first node.
    private mutating func build(parentValues: [Int32]?, _ problems: inout Problems) {
        do {
            tree = try OutlineTree(nodes: nodes)
        } catch {
            for cycle in error.cycles {
                let parentValue = parentValues.map { Int($0[cycle[0]]) } ?? Int(positions[cycle[0]])
                problems.add(at: document.value(at: parentValue), cycleDetail(cycle))
            }
        }
    }

    /// Names at most 8 ids of the cycle, each followed by its parent.
    private func cycleDetail(_ cycle: [Int]) -> String {
        let quoted = { (node: Int) in self.ids.value(of: node).map(ClientID.quoted) ?? "?" }
        let shown = cycle.prefix(8).map(quoted)
        let rest = cycle.count > shown.count ? ["… (\(cycle.count) nodes)"] : []
        let chain = (shown + rest + [quoted(cycle[0])]).joined(separator: " → ")
        return "closes a cycle of parents (each node → its parent: \(chain)), so none of them reaches a root"
    }
}

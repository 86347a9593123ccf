import CSimdJSON
import Glibc
import TrellisCore

/// Issue 3, tree input: one pass over `nodes` on simdjson's tape, giving every node an index and recording every problem.
struct OutlineTreeReader {
    let document: tjson_document
    let idKey: String
    /// Each node's id, by node index.
    private(set) var ids: IDTable
    private(set) var tree: OutlineTree?
    private var nodes: [OutlineNode] = []
    /// Tape index of each node's object, only read to point at problems.
    private var positions: [UInt32] = []

    init(document: tjson_document, idKey: String, expectedCount: Int = 16) {
        self.document = document
        self.idKey = idKey
        ids = IDTable(document: document, expectedCount: expectedCount)
    }

    /// Nested form: `roots` is the `nodes` array; children under `childrenKey`.
    mutating func readNested(_ roots: JSONValue, childrenKey: String, _ problems: inout Problems) {
        let before = problems.count
        let idBytes = Array(idKey.utf8)
        let childrenBytes = Array(childrenKey.utf8)
        idBytes.withUnsafeBytes { idBytes in
            childrenBytes.withUnsafeBytes { childrenBytes in
                walkNested(roots, idBytes, childrenBytes, &problems)
            }
        }
        guard problems.count == before else { return }
        build(parentValues: nil, &problems)
    }

    private mutating func walkNested(
        _ roots: JSONValue, _ idKey: UnsafeRawBufferPointer, _ childrenKey: UnsafeRawBufferPointer,
        _ problems: inout Problems
    ) {
        // Issue 3, scale: an explicit stack instead of recursion, so any depth is safe; nodes come out in pre-order.
        var stack: [(next: Int, parent: Int32)] = [(roots.index + 1, -1)]
        while let top = stack.last {
            let position = top.next
            let type = tjson_type_at(document, position)
            if type == TJSON_ARRAY_END {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next = tjson_after(document, position)
            guard type == TJSON_OBJECT else {
                problems.add(at: JSONValue(document: document, index: position), "must be an object")
                continue
            }
            // Issue 3, scale: the documented node limit.
            guard ids.count < OutlineLimits.maxNodes else {
                problems.add(at: roots, "must hold at most \(OutlineLimits.maxNodes) nodes, counting nested ones")
                return
            }
            let index = Int32(ids.count)
            let (idValue, childrenValue) = Self.find(document, position, idKey, childrenKey)
            let childrenType = childrenValue < 0 ? TJSON_NULL : tjson_type_at(document, childrenValue)
            // Issue 3, tree input: children absent or null → a leaf; an array, even an empty one → expandable.
            append(position, idValue: idValue, parent: top.parent, hasChildrenMember: childrenType == TJSON_ARRAY, &problems)
            if childrenType == TJSON_ARRAY {
                if tjson_type_at(document, childrenValue + 1) != TJSON_ARRAY_END {
                    stack.append((childrenValue + 1, index))
                }
            } else if childrenType != TJSON_NULL {
                problems.add(at: JSONValue(document: document, index: childrenValue), "must be an array or null")
            }
        }
    }

    /// Flat form: every node in one array, naming its parent's id under `parentKey`.
    mutating func readFlat(_ elements: JSONElements, count: Int, parentKey: String, _ problems: inout Problems) {
        nodes.reserveCapacity(count)
        positions.reserveCapacity(count)
        var parentValues = [Int32]()
        parentValues.reserveCapacity(count)
        let idBytes = Array(idKey.utf8)
        let parentBytes = Array(parentKey.utf8)
        idBytes.withUnsafeBytes { idBytes in
            parentBytes.withUnsafeBytes { parentBytes in
                for element in elements {
                    guard element.type == TJSON_OBJECT else {
                        problems.add(at: element, "must be an object")
                        _ = ids.append(nil)
                        nodes.append(OutlineNode(parent: -1, hasChildrenMember: false))
                        positions.append(UInt32(element.index))
                        parentValues.append(-1)
                        continue
                    }
                    let (idValue, parentValue) = Self.find(document, element.index, idBytes, parentBytes)
                    // Issue 3, flat form: expandable when it has a child, so no children member is read.
                    append(element.index, idValue: idValue, parent: -1, hasChildrenMember: false, &problems)
                    parentValues.append(Int32(parentValue))
                }
            }
        }
        // Issue 3, flat form: parents may follow their children, so they are resolved once every id is known.
        for i in 0..<parentValues.count where parentValues[i] >= 0 {
            let value = JSONValue(document: document, index: Int(parentValues[i]))
            // Issue 3, flat form: parent absent or null → a root.
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
        _ position: Int, idValue: Int, parent: Int32, hasChildrenMember: Bool, _ problems: inout Problems
    ) {
        var id: JSONValue?
        if idValue < 0 {
            problems.add(at: JSONValue(document: document, index: position), member: idKey, "is required")
        } else {
            let value = JSONValue(document: document, index: idValue)
            if ClientID.isValid(value, &problems) { id = value }
        }
        if let first = ids.append(id), let id {
            // Issue 3, 422: a duplicate id, naming the first occurrence's pointer.
            problems.add(
                at: id, "duplicates the id \(ClientID.quoted(id)) first given at ",
                citing: JSONValue(document: document, index: Int(positions[first])), member: idKey)
        }
        nodes.append(OutlineNode(parent: parent, hasChildrenMember: hasChildrenMember))
        positions.append(UInt32(position))
    }

    /// Issue 3, 422 in flat form: a cycle, one problem at the parent member of its first node.
    private mutating func build(parentValues: [Int32]?, _ problems: inout Problems) {
        do {
            tree = try OutlineTree(nodes: nodes)
        } catch {
            for cycle in error.cycles {
                let parentValue = parentValues.map { Int($0[cycle[0]]) } ?? Int(positions[cycle[0]])
                problems.add(at: JSONValue(document: document, index: parentValue), cycleDetail(cycle))
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

    /// Tape indices of the values under keys `a` and `b` of the object at `object`, -1 when absent.
    /// With duplicate keys the last one wins, as `JSONValue.member` does.
    @inline(__always)
    private static func find(
        _ document: tjson_document, _ object: Int, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer
    ) -> (Int, Int) {
        var found = (-1, -1)
        var i = object + 1
        while tjson_type_at(document, i) != TJSON_OBJECT_END {
            var length = 0
            let key = tjson_string(document, i, &length)
            if length == a.count && sameBytes(key, a.baseAddress, length) {
                found.0 = i + 1
            } else if length == b.count && sameBytes(key, b.baseAddress, length) {
                found.1 = i + 1
            }
            i = tjson_after(document, i + 1)
        }
        return found
    }
}

/// Seeded random forests in the nested and flat forms of the outline input, and a recursive model of the visible rows.
public enum RandomTrees {
    /// A random forest of `count` nodes with distinct ids (never equal to their index, never negative).
    /// About half the nodes hang off the previous node, so chains get deep; about a fifth are roots.
    public static func forest(count: Int, emptyChildrenArrays: Bool, using rng: inout SplitMix64) -> [RefNode] {
        let ids = (0..<count).map { $0 * 7 + 3 }.shuffled(using: &rng)
        var parent = [Int](repeating: -1, count: count)
        for k in 1..<max(count, 1) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: parent[k] = -1
            case 2...5: parent[k] = k - 1
            default: parent[k] = Int.random(in: 0..<k, using: &rng)
            }
        }
        var kids = [[Int]](repeating: [], count: count)
        for k in 0..<count where parent[k] >= 0 { kids[parent[k]].append(k) }
        var built = [RefNode?](repeating: nil, count: count)
        for k in stride(from: count - 1, through: 0, by: -1) {
            let hasMember = !kids[k].isEmpty || (emptyChildrenArrays && Bool.random(using: &rng))
            built[k] = RefNode(id: ids[k], children: hasMember ? kids[k].map { built[$0]! } : nil)
        }
        return (0..<count).filter { parent[$0] < 0 }.map { built[$0]! }
    }

    /// Nested form: nodes in pre-order, `hasChildrenMember` from the children member. Iterative.
    public static func nestedForm(_ roots: [RefNode]) -> IndexedForest {
        var forest = IndexedForest(ids: [], parents: [], hasChildrenMember: [])
        var stack: [(node: RefNode, parent: Int32)] = roots.reversed().map { ($0, -1) }
        while let (node, parent) = stack.popLast() {
            let index = Int32(forest.ids.count)
            forest.ids.append(node.id)
            forest.parents.append(parent)
            forest.hasChildrenMember.append(node.children != nil)
            for child in (node.children ?? []).reversed() { stack.append((child, index)) }
        }
        return forest
    }

    /// Flat form: the same tree in a random array order that keeps sibling order (parents may follow children).
    /// `hasChildrenMember` is all false, as the API layer passes it in flat form.
    public static func flatForm(_ roots: [RefNode], using rng: inout SplitMix64) -> IndexedForest {
        let preOrder = nestedForm(roots)
        let n = preOrder.ids.count
        var position = Array(0..<n).shuffled(using: &rng)
        var siblingGroups = [Int32: [Int]]()
        for i in 0..<n { siblingGroups[preOrder.parents[i], default: []].append(i) }
        for group in siblingGroups.values {
            for (node, slot) in zip(group, group.map { position[$0] }.sorted()) { position[node] = slot }
        }
        var flat = IndexedForest(
            ids: [Int](repeating: 0, count: n), parents: [Int32](repeating: -1, count: n),
            hasChildrenMember: [Bool](repeating: false, count: n))
        for i in 0..<n {
            let parent = Int(preOrder.parents[i])
            flat.ids[position[i]] = preOrder.ids[i]
            flat.parents[position[i]] = parent < 0 ? -1 : Int32(position[parent])
        }
        return flat
    }

    public static func allIds(_ roots: [RefNode]) -> Set<Int> {
        Set(nestedForm(roots).ids)
    }

    /// Recursive model of the visible rows: children are shown when the node is expandable and expanded.
    /// Flat form: a node is expandable when it has a child; nested form: when its children member is an array.
    public static func referenceRows(_ roots: [RefNode], expanded: Set<Int>, selection: Int?, flatForm: Bool) -> [RefRow] {
        var rows = [RefRow]()
        func visit(_ node: RefNode, depth: Int, parent: Int?) {
            let expandable = flatForm ? !(node.children ?? []).isEmpty : node.children != nil
            let open = expandable && expanded.contains(node.id)
            rows.append(RefRow(id: node.id, depth: depth, parent: parent, expandable: expandable,
                               expanded: open, selected: node.id == selection))
            if open {
                for child in node.children ?? [] { visit(child, depth: depth + 1, parent: node.id) }
            }
        }
        for root in roots { visit(root, depth: 0, parent: nil) }
        return rows
    }
}

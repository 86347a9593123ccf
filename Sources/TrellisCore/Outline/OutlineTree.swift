/// A validated forest over node indices 0..<count: parents, pre-order numbering, depths, subtree sizes, expandable flags.
/// Built iteratively, so any depth is safe; memory is O(count).
public struct OutlineTree: Sendable, Equatable {
    /// The number of nodes.
    public let count: Int
    let parents: [Int32]
    let preOrder: [Int32]
    let preIndex: [Int32]
    let depths: [Int32]
    let subtreeSizes: [Int32]
    let expandable: [Bool]

    /// Builds the tree from nodes in any order. Nested form: pass nodes in pre-order. Flat form: array order.
    /// Throws when some nodes are not reachable from a root, i.e. lie on or behind a parent cycle.
    /// Precondition: every parent is -1 or a valid index (unknown parent ids are rejected by the API layer).
    public init(nodes: [OutlineNode]) throws(OutlineCycleError) {
        let n = nodes.count
        precondition(n < Int(Int32.max), "OutlineTree holds fewer than 2^31 - 1 nodes")
        var parents = [Int32](repeating: -1, count: n)
        var childStart = [Int32](repeating: 0, count: n + 1)
        var rootCount = 0
        for i in 0..<n {
            let p = Int(nodes[i].parent)
            precondition(p >= -1 && p < n, "parent index out of range")
            parents[i] = nodes[i].parent
            if p < 0 { rootCount += 1 } else { childStart[p + 1] += 1 }
        }
        for i in 0..<n { childStart[i + 1] += childStart[i] }

        // Rule: siblings keep the order of the input array.
        var next = childStart
        var childList = [Int32](repeating: 0, count: n - rootCount)
        var rootList = [Int32]()
        rootList.reserveCapacity(rootCount)
        for i in 0..<n {
            let p = Int(parents[i])
            if p < 0 {
                rootList.append(Int32(i))
            } else {
                childList[Int(next[p])] = Int32(i)
                next[p] += 1
            }
        }

        // Rule: any depth is accepted, so pre-order numbering walks an explicit stack instead of recursing.
        var preOrder = [Int32]()
        preOrder.reserveCapacity(n)
        var preIndex = [Int32](repeating: -1, count: n)
        var depths = [Int32](repeating: 0, count: n)
        var stack = [Int32](rootList.reversed())
        stack.reserveCapacity(n)
        while let top = stack.popLast() {
            let v = Int(top)
            preIndex[v] = Int32(preOrder.count)
            preOrder.append(top)
            let p = Int(parents[v])
            if p >= 0 { depths[v] = depths[p] + 1 }
            let first = Int(childStart[v])
            var c = Int(childStart[v + 1])
            while c > first {
                c -= 1
                stack.append(childList[c])
            }
        }
        // Rule: a node no root reaches lies on or behind a parent cycle, which is an error.
        guard preOrder.count == n else {
            throw OutlineCycleError(parents: parents, preIndex: preIndex)
        }

        var subtreeSizes = [Int32](repeating: 1, count: n)
        for k in stride(from: n - 1, to: 0, by: -1) {
            let v = Int(preOrder[k])
            let p = Int(parents[v])
            if p >= 0 { subtreeSizes[p] += subtreeSizes[v] }
        }

        // Rule: a node is expandable when its nested `children` member is an array (even an empty one) or when it has a child.
        var expandable = [Bool](repeating: false, count: n)
        for i in 0..<n {
            expandable[i] = nodes[i].hasChildrenMember || childStart[i + 1] > childStart[i]
        }

        self.count = n
        self.parents = parents
        self.preOrder = preOrder
        self.preIndex = preIndex
        self.depths = depths
        self.subtreeSizes = subtreeSizes
        self.expandable = expandable
    }

    /// Depth of the node; roots are at depth 0.
    public func depth(of node: Int) -> Int { Int(depths[node]) }

    /// The path from the node's root to the node, both included. O(depth).
    public func path(to node: Int) -> [Int] {
        var path = [Int]()
        path.reserveCapacity(Int(depths[node]) + 1)
        var u = node
        while u >= 0 {
            path.append(u)
            u = Int(parents[u])
        }
        path.reverse()
        return path
    }
}

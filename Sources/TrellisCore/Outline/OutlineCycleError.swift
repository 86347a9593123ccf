/// Rule: in flat form, parent links that form a cycle are an error; thrown by `OutlineTree.init` when some nodes are not reachable from a root.
public struct OutlineCycleError: Error, Sendable, Equatable {
    /// Each cycle once, starting at its smallest index and following parent links; ordered by that first index.
    public let cycles: [[Int]]
    /// The cycles as node indices.
    public init(cycles: [[Int]]) {
        self.cycles = cycles
    }

    /// Every node not reachable from a root has a parent chain that ends in a cycle; each node is walked once, so O(n) in total.
    init(parents: [Int32], preIndex: [Int32]) {
        let n = parents.count
        var walkTag = [Int32](repeating: 0, count: n)
        var cycles = [[Int]]()
        for start in 0..<n where preIndex[start] < 0 {
            guard walkTag[start] == 0 else { continue }
            let tag = Int32(start + 1)
            var u = start
            while walkTag[u] == 0 {
                walkTag[u] = tag
                u = Int(parents[u])
            }
            guard walkTag[u] == tag else { continue }
            var cycle = [u]
            var w = Int(parents[u])
            while w != u {
                cycle.append(w)
                w = Int(parents[w])
            }
            let smallest = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
            cycles.append(Array(cycle[smallest...] + cycle[..<smallest]))
        }
        cycles.sort { $0[0] < $1[0] }
        self.cycles = cycles
    }
}

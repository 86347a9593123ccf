/// The seed's NodesToExpand as described there: a recursive depth-first search that, when the selection is
/// found in a child's subtree, records the node on the way back up (so the list is deepest-first) and stops.
public final class SeedExpansionModel {
    public let nodes: [RefNode]
    public let selection: Int?
    private var collected: [Int] = []

    public init(nodes: [RefNode], selection: Int?) {
        self.nodes = nodes
        self.selection = selection
    }

    private func checkNode(_ node: RefNode) -> Bool {
        if node.id == selection { return true }
        for child in node.children ?? [] where checkNode(child) {
            collected.append(node.id)
            return true
        }
        return false
    }

    public func checkNodes() -> [Int] {
        collected = []
        guard selection != nil else { return collected }
        for node in nodes where checkNode(node) { break }
        return collected
    }
}

import TrellisCore
import TrellisTestSupport

extension IndexedForest {
    /// The forest as the core's input.
    var nodes: [OutlineNode] {
        zip(parents, hasChildrenMember).map { OutlineNode(parent: $0, hasChildrenMember: $1) }
    }
}

import TrellisCore

enum OutlineFixtures {
    /// Nested form, in pre-order:
    /// 0 root [1, 5, 7] · 1 docs [2, 3] · 2 readme (leaf) · 3 guides [4] · 4 intro (leaf)
    /// · 5 src [6] · 6 main (leaf) · 7 empty [] (expandable, no children) · 8 other (root, leaf)
    static let picker: [OutlineNode] = [
        OutlineNode(parent: -1, hasChildrenMember: true),
        OutlineNode(parent: 0, hasChildrenMember: true),
        OutlineNode(parent: 1, hasChildrenMember: false),
        OutlineNode(parent: 1, hasChildrenMember: true),
        OutlineNode(parent: 3, hasChildrenMember: false),
        OutlineNode(parent: 0, hasChildrenMember: true),
        OutlineNode(parent: 5, hasChildrenMember: false),
        OutlineNode(parent: 0, hasChildrenMember: true),
        OutlineNode(parent: -1, hasChildrenMember: false),
    ]

    /// The same tree without the empty node, in both forms, with client ids per index.
    static let nestedIds = ["root", "docs", "readme", "guides", "intro", "src", "main", "other"]
    static let nested: [OutlineNode] = [
        OutlineNode(parent: -1, hasChildrenMember: true),
        OutlineNode(parent: 0, hasChildrenMember: true),
        OutlineNode(parent: 1, hasChildrenMember: false),
        OutlineNode(parent: 1, hasChildrenMember: true),
        OutlineNode(parent: 3, hasChildrenMember: false),
        OutlineNode(parent: 0, hasChildrenMember: true),
        OutlineNode(parent: 5, hasChildrenMember: false),
        OutlineNode(parent: -1, hasChildrenMember: false),
    ]
    static let flatIds = ["intro", "readme", "main", "guides", "root", "docs", "src", "other"]
    static let flat: [OutlineNode] = [
        OutlineNode(parent: 3, hasChildrenMember: false),
        OutlineNode(parent: 5, hasChildrenMember: false),
        OutlineNode(parent: 6, hasChildrenMember: false),
        OutlineNode(parent: 5, hasChildrenMember: false),
        OutlineNode(parent: -1, hasChildrenMember: false),
        OutlineNode(parent: 4, hasChildrenMember: false),
        OutlineNode(parent: 4, hasChildrenMember: false),
        OutlineNode(parent: -1, hasChildrenMember: false),
    ]

    static func row(_ index: Int, _ node: Int, depth: Int, parent: Int?,
                    expandable: Bool, expanded: Bool, selected: Bool = false) -> OutlineRow {
        OutlineRow(index: index, node: node, depth: depth, parent: parent,
                   expandable: expandable, expanded: expanded, selected: selected)
    }
}

extension OutlineTree {
    /// Every node as a row, everything expanded: the forest's pre-order, parents, depths and expandable flags as the rows endpoint sees them.
    var preOrderRows: [OutlineRow] {
        OutlineRows.compute(OutlineRowsInput(tree: self, selection: nil, expanded: Array(0..<count))).rows
    }
}

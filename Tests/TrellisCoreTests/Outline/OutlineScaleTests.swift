import TrellisCore
import XCTest

final class OutlineScaleTests: XCTestCase {
    private let n = 1_000_000

    /// Flat form, parents after children: node i's parent is i + 1, node n - 1 is the root.
    func testMillionNodeFlatChain() throws {
        let nodes = (0..<n).map { OutlineNode(parent: $0 == n - 1 ? -1 : Int32($0 + 1), hasChildrenMember: false) }
        let tree = try OutlineTree(nodes: nodes)
        XCTAssertEqual(tree.depth(of: 0), n - 1)

        let expansion = OutlineExpansion.compute(OutlineExpansionInput(tree: tree, selections: [0, 500_000]))
        XCTAssertEqual(expansion.expand, Array(stride(from: n - 1, through: 1, by: -1)))
        XCTAssertEqual(expansion.paths, [Array(stride(from: n - 1, through: 0, by: -1)),
                                         Array(stride(from: n - 1, through: 500_000, by: -1))])

        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 0, expanded: nil, offset: n - 2, limit: 5)), OutlineRowsOutput(rows: [
            OutlineRow(index: n - 2, node: 1, depth: n - 2, parent: 2, expandable: true, expanded: true, selected: false),
            OutlineRow(index: n - 1, node: 0, depth: n - 1, parent: 1, expandable: false, expanded: false, selected: true),
        ], totalRows: n, selectedRow: n - 1))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 0, expanded: [], offset: 0, limit: 2)), OutlineRowsOutput(rows: [
            OutlineRow(index: 0, node: n - 1, depth: 0, parent: nil, expandable: true, expanded: false, selected: false),
        ], totalRows: 1, selectedRow: nil))
    }

    /// Nested form in pre-order: node i's parent is i - 1; selecting one shallow node sorts instead of scanning.
    func testMillionNodeNestedChain() throws {
        let nodes = (0..<n).map { OutlineNode(parent: Int32($0 - 1), hasChildrenMember: $0 < n - 1) }
        let tree = try OutlineTree(nodes: nodes)
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: tree, selections: [n - 1])).expand, Array(0..<n - 1))
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: tree, selections: [3, nil])),
                       OutlineExpansionOutput(expand: [0, 1, 2], paths: [[0, 1, 2, 3], []]))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 2, expanded: nil, offset: 1, limit: 10)), OutlineRowsOutput(rows: [
            OutlineRow(index: 1, node: 1, depth: 1, parent: 0, expandable: true, expanded: true, selected: false),
            OutlineRow(index: 2, node: 2, depth: 2, parent: 1, expandable: true, expanded: false, selected: true),
        ], totalRows: 3, selectedRow: 2))
    }

    func testMillionNodeRingIsOneCycle() {
        let nodes = (0..<n).map { OutlineNode(parent: Int32(($0 + 1) % n), hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError, OutlineCycleError(cycles: [Array(0..<n)]))
        }
    }
}

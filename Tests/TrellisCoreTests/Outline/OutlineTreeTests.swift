import TrellisCore
import XCTest

final class OutlineTreeTests: XCTestCase {
    /// The children of each node in sibling order, read off the rows (pre-order keeps siblings in order).
    private func children(_ rows: [OutlineRow], count: Int) -> [[Int]] {
        (0..<count).map { node in rows.filter { $0.parent == node }.map(\.node) }
    }

    func testNestedFormKeepsPreOrderAndShape() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        XCTAssertEqual(tree.count, 9)
        let rows = tree.preOrderRows
        XCTAssertEqual(rows.map(\.node), Array(0..<9))
        XCTAssertEqual(rows.filter { $0.parent == nil }.map(\.node), [0, 8])
        XCTAssertEqual(children(rows, count: 9), [[1, 5, 7], [2, 3], [], [4], [], [6], [], [], []])
        XCTAssertEqual(rows.map(\.parent), [nil, 0, 1, 1, 3, 0, 5, 0, nil])
        XCTAssertEqual((0..<9).map { tree.depth(of: $0) }, [0, 1, 2, 2, 3, 1, 2, 1, 0])
        XCTAssertEqual(rows.map(\.depth), [0, 1, 2, 2, 3, 1, 2, 1, 0])
        XCTAssertEqual(rows.map(\.expandable), [true, true, false, true, false, true, false, true, false])
        XCTAssertEqual(tree.path(to: 4), [0, 1, 3, 4])
        XCTAssertEqual(tree.path(to: 8), [8])
    }

    func testFlatFormOrdersSiblingsByArrayOrderAndDerivesExpandable() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.flat)
        let rows = tree.preOrderRows
        XCTAssertEqual(rows.filter { $0.parent == nil }.map(\.node), [4, 7])
        XCTAssertEqual(children(rows, count: 8), [[], [], [], [0], [5, 6], [1, 3], [2], []])
        XCTAssertEqual(rows.map(\.node), [4, 5, 1, 3, 0, 6, 2, 7])
        XCTAssertEqual((0..<8).map { tree.depth(of: $0) }, [3, 2, 2, 2, 0, 1, 1, 0])
        XCTAssertEqual((0..<8).map { node in rows.first { $0.node == node }!.expandable },
                       [false, false, false, true, true, true, true, false])
    }

    func testEmptyInputIsAnEmptyTree() throws {
        let tree = try OutlineTree(nodes: [])
        XCTAssertEqual(tree.count, 0)
        XCTAssertEqual(tree.preOrderRows, [])
    }

    func testSelfParentIsACycle() {
        let nodes = [OutlineNode(parent: -1, hasChildrenMember: false), OutlineNode(parent: 1, hasChildrenMember: false)]
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError, OutlineCycleError(cycles: [[1]]))
        }
    }

    func testTwoCycle() {
        let nodes: [OutlineNode] = [-1, 2, 1].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError, OutlineCycleError(cycles: [[1, 2]]))
        }
    }

    func testCycleWithTailsHangingOffIt() {
        // 1 → 3 → 4 → 1 is the cycle; 2 → 1 and 5 → 2 hang off it; 0 and 6 form a valid tree.
        let nodes: [OutlineNode] = [-1, 3, 1, 4, 1, 2, 0].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError,
                           OutlineCycleError(cycles: [[1, 3, 4]]))
        }
    }

    func testSeveralCyclesAreListedByTheirSmallestIndex() {
        // 0 → 5 → 3 → 5 (tail 0, cycle {3, 5}); 1 → 2 → 1; 4 is a root.
        let nodes: [OutlineNode] = [5, 2, 1, 5, -1, 3].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError,
                           OutlineCycleError(cycles: [[1, 2], [3, 5]]))
        }
    }
}

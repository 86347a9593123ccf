import TrellisCore
import XCTest

final class OutlineTreeTests: XCTestCase {
    func testNestedFormKeepsPreOrderAndShape() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        XCTAssertEqual(tree.count, 9)
        XCTAssertEqual(tree.roots, [0, 8])
        XCTAssertEqual((0..<9).map { tree.children(of: $0) }, [[1, 5, 7], [2, 3], [], [4], [], [6], [], [], []])
        XCTAssertEqual((0..<9).map { tree.parent(of: $0) }, [nil, 0, 1, 1, 3, 0, 5, 0, nil])
        XCTAssertEqual((0..<9).map { tree.depth(of: $0) }, [0, 1, 2, 2, 3, 1, 2, 1, 0])
        XCTAssertEqual((0..<9).map { tree.isExpandable($0) }, [true, true, false, true, false, true, false, true, false])
        XCTAssertEqual((0..<9).map { tree.subtreeSize(of: $0) }, [8, 4, 1, 2, 1, 2, 1, 1, 1])
        XCTAssertEqual((0..<9).map { tree.preOrderPosition(of: $0) }, Array(0..<9))
        XCTAssertEqual(tree.path(to: 4), [0, 1, 3, 4])
        XCTAssertEqual(tree.path(to: 8), [8])
    }

    func testFlatFormOrdersSiblingsByArrayOrderAndDerivesExpandable() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.flat)
        XCTAssertEqual(tree.roots, [4, 7])
        XCTAssertEqual((0..<8).map { tree.children(of: $0) }, [[], [], [], [0], [5, 6], [1, 3], [2], []])
        XCTAssertEqual((0..<8).map { tree.node(atPreOrderPosition: $0) }, [4, 5, 1, 3, 0, 6, 2, 7])
        XCTAssertEqual((0..<8).map { tree.depth(of: $0) }, [3, 2, 2, 2, 0, 1, 1, 0])
        XCTAssertEqual((0..<8).map { tree.isExpandable($0) }, [false, false, false, true, true, true, true, false])
    }

    func testEmptyInputIsAnEmptyTree() throws {
        let tree = try OutlineTree(nodes: [])
        XCTAssertEqual(tree.count, 0)
        XCTAssertEqual(tree.roots, [])
    }

    func testSelfParentIsACycle() {
        let nodes = [OutlineNode(parent: -1, hasChildrenMember: false), OutlineNode(parent: 1, hasChildrenMember: false)]
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError, OutlineCycleError(cycles: [[1]], unreachable: [1]))
        }
    }

    func testTwoCycle() {
        let nodes: [OutlineNode] = [-1, 2, 1].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError, OutlineCycleError(cycles: [[1, 2]], unreachable: [1, 2]))
        }
    }

    func testCycleWithTailsHangingOffIt() {
        // 1 → 3 → 4 → 1 is the cycle; 2 → 1 and 5 → 2 hang off it; 0 and 6 form a valid tree.
        let nodes: [OutlineNode] = [-1, 3, 1, 4, 1, 2, 0].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError,
                           OutlineCycleError(cycles: [[1, 3, 4]], unreachable: [1, 2, 3, 4, 5]))
        }
    }

    func testSeveralCyclesAreListedByTheirSmallestIndex() {
        // 0 → 5 → 3 → 5 (tail 0, cycle {3, 5}); 1 → 2 → 1; 4 is a root.
        let nodes: [OutlineNode] = [5, 2, 1, 5, -1, 3].map { OutlineNode(parent: $0, hasChildrenMember: false) }
        XCTAssertThrowsError(try OutlineTree(nodes: nodes)) { error in
            XCTAssertEqual(error as? OutlineCycleError,
                           OutlineCycleError(cycles: [[1, 2], [3, 5]], unreachable: [0, 1, 2, 3, 5]))
        }
    }
}

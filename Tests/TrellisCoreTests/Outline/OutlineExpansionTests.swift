import TrellisCore
import XCTest

final class OutlineExpansionTests: XCTestCase {
    private func picker() throws -> OutlineTree { try OutlineTree(nodes: OutlineFixtures.picker) }

    func testNoSelection() throws {
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: []), OutlineExpansion(expand: [], paths: []))
        XCTAssertEqual(OutlineExpansion.defaultExpanded(in: try picker(), selection: nil), [])
    }

    func testSelectionNotFound() throws {
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: [nil]), OutlineExpansion(expand: [], paths: [[]]))
    }

    func testRootSelection() throws {
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: [0]), OutlineExpansion(expand: [], paths: [[0]]))
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: [8]), OutlineExpansion(expand: [], paths: [[8]]))
    }

    func testDeepSelection() throws {
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: [4]),
                       OutlineExpansion(expand: [0, 1, 3], paths: [[0, 1, 3, 4]]))
        XCTAssertEqual(OutlineExpansion.defaultExpanded(in: try picker(), selection: 4), [0, 1, 3])
    }

    func testSeveralSelectionsShareAncestorsOnce() throws {
        XCTAssertEqual(OutlineExpansion(tree: try picker(), selections: [6, 4, 2, nil, 4, 7]),
                       OutlineExpansion(expand: [0, 1, 3, 5],
                                        paths: [[0, 5, 6], [0, 1, 3, 4], [0, 1, 2], [], [0, 1, 3, 4], [0, 7]]))
    }

    func testNestedAndFlatFormsGiveTheSameAnswer() throws {
        let nested = try OutlineTree(nodes: OutlineFixtures.nested)
        let flat = try OutlineTree(nodes: OutlineFixtures.flat)
        func answer(_ tree: OutlineTree, _ ids: [String], _ selections: [String]) -> [[String]] {
            let result = OutlineExpansion(tree: tree, selections: selections.map { ids.firstIndex(of: $0) })
            return [result.expand.map { ids[$0] }] + result.paths.map { $0.map { ids[$0] } }
        }
        let selections = ["main", "intro", "nope", "root", "readme"]
        let expected = [["root", "docs", "guides", "src"], ["root", "src", "main"],
                        ["root", "docs", "guides", "intro"], [], ["root"], ["root", "docs", "readme"]]
        XCTAssertEqual(answer(nested, OutlineFixtures.nestedIds, selections), expected)
        XCTAssertEqual(answer(flat, OutlineFixtures.flatIds, selections), expected)
    }
}

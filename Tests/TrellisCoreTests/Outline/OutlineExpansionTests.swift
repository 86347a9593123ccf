import TrellisCore
import XCTest

final class OutlineExpansionTests: XCTestCase {
    private func picker() throws -> OutlineTree { try OutlineTree(nodes: OutlineFixtures.picker) }

    func testNoSelection() throws {
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [])), OutlineExpansionOutput(expand: [], paths: []))
        XCTAssertEqual(OutlineExpansion.defaultExpanded(in: try picker(), selection: nil), [])
    }

    func testSelectionNotFound() throws {
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [nil])), OutlineExpansionOutput(expand: [], paths: [[]]))
    }

    func testRootSelection() throws {
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [0])), OutlineExpansionOutput(expand: [], paths: [[0]]))
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [8])), OutlineExpansionOutput(expand: [], paths: [[8]]))
    }

    func testDeepSelection() throws {
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [4])),
                       OutlineExpansionOutput(expand: [0, 1, 3], paths: [[0, 1, 3, 4]]))
        XCTAssertEqual(OutlineExpansion.defaultExpanded(in: try picker(), selection: 4), [0, 1, 3])
    }

    func testSeveralSelectionsShareAncestorsOnce() throws {
        XCTAssertEqual(OutlineExpansion.compute(OutlineExpansionInput(tree: try picker(), selections: [6, 4, 2, nil, 4, 7])),
                       OutlineExpansionOutput(expand: [0, 1, 3, 5],
                                        paths: [[0, 5, 6], [0, 1, 3, 4], [0, 1, 2], [], [0, 1, 3, 4], [0, 7]]))
    }

    func testNestedAndFlatFormsGiveTheSameAnswer() throws {
        let nested = try OutlineTree(nodes: OutlineFixtures.nested)
        let flat = try OutlineTree(nodes: OutlineFixtures.flat)
        func answer(_ tree: OutlineTree, _ ids: [String], _ selections: [String]) -> [[String]] {
            let result = OutlineExpansion.compute(OutlineExpansionInput(tree: tree, selections: selections.map { ids.firstIndex(of: $0) }))
            return [result.expand.map { ids[$0] }] + result.paths.map { $0.map { ids[$0] } }
        }
        let selections = ["main", "intro", "nope", "root", "readme"]
        let expected = [["root", "docs", "guides", "src"], ["root", "src", "main"],
                        ["root", "docs", "guides", "intro"], [], ["root"], ["root", "docs", "readme"]]
        XCTAssertEqual(answer(nested, OutlineFixtures.nestedIds, selections), expected)
        XCTAssertEqual(answer(flat, OutlineFixtures.flatIds, selections), expected)
    }
}

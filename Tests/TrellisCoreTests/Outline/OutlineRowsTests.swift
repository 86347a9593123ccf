import TrellisCore
import XCTest

final class OutlineRowsTests: XCTestCase {
    private typealias F = OutlineFixtures
    private func picker() throws -> OutlineTree { try OutlineTree(nodes: F.picker) }

    private let deepSelectionRows = [
        F.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: true),
        F.row(1, 1, depth: 1, parent: 0, expandable: true, expanded: true),
        F.row(2, 2, depth: 2, parent: 1, expandable: false, expanded: false),
        F.row(3, 3, depth: 2, parent: 1, expandable: true, expanded: true),
        F.row(4, 4, depth: 3, parent: 3, expandable: false, expanded: false, selected: true),
        F.row(5, 5, depth: 1, parent: 0, expandable: true, expanded: false),
        F.row(6, 7, depth: 1, parent: 0, expandable: true, expanded: false),
        F.row(7, 8, depth: 0, parent: nil, expandable: false, expanded: false),
    ]

    func testNoSelectionShowsOnlyRoots() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try picker(), selection: nil, expanded: nil)), OutlineRowsOutput(rows: [
            F.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: false),
            F.row(1, 8, depth: 0, parent: nil, expandable: false, expanded: false),
        ], totalRows: 2, selectedRow: nil))
    }

    func testDefaultExpansionOpensThePathToADeepSelection() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try picker(), selection: 4, expanded: nil)),
                       OutlineRowsOutput(rows: deepSelectionRows, totalRows: 8, selectedRow: 4))
    }

    func testRootSelection() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try picker(), selection: 8, expanded: nil)), OutlineRowsOutput(rows: [
            F.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: false),
            F.row(1, 8, depth: 0, parent: nil, expandable: false, expanded: false, selected: true),
        ], totalRows: 2, selectedRow: 1))
    }

    func testStaleExpandedLeavesAreIgnored() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try picker(), selection: 6, expanded: [0, 2, 4, 6, 8, 5])), OutlineRowsOutput(rows: [
            F.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: true),
            F.row(1, 1, depth: 1, parent: 0, expandable: true, expanded: false),
            F.row(2, 5, depth: 1, parent: 0, expandable: true, expanded: true),
            F.row(3, 6, depth: 2, parent: 5, expandable: false, expanded: false, selected: true),
            F.row(4, 7, depth: 1, parent: 0, expandable: true, expanded: false),
            F.row(5, 8, depth: 0, parent: nil, expandable: false, expanded: false),
        ], totalRows: 6, selectedRow: 3))
    }

    func testHiddenSelectionHasNoSelectedRowAndEmptyChildrenExpandToNothing() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try picker(), selection: 4, expanded: [0, 7])), OutlineRowsOutput(rows: [
            F.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: true),
            F.row(1, 1, depth: 1, parent: 0, expandable: true, expanded: false),
            F.row(2, 5, depth: 1, parent: 0, expandable: true, expanded: false),
            F.row(3, 7, depth: 1, parent: 0, expandable: true, expanded: true),
            F.row(4, 8, depth: 0, parent: nil, expandable: false, expanded: false),
        ], totalRows: 5, selectedRow: nil))
    }

    func testWindowing() throws {
        let tree = try picker()
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 2, limit: 3)),
                       OutlineRowsOutput(rows: Array(deepSelectionRows[2..<5]), totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 6, limit: 10)),
                       OutlineRowsOutput(rows: Array(deepSelectionRows[6..<8]), totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 5)),
                       OutlineRowsOutput(rows: Array(deepSelectionRows[5..<8]), totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 0, limit: 0)),
                       OutlineRowsOutput(rows: [], totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 8, limit: 5)),
                       OutlineRowsOutput(rows: [], totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: Int.max, limit: Int.max)),
                       OutlineRowsOutput(rows: [], totalRows: 8, selectedRow: 4))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, expanded: nil, offset: 7, limit: Int.max)),
                       OutlineRowsOutput(rows: [deepSelectionRows[7]], totalRows: 8, selectedRow: 4))
    }

    func testEmptyTree() throws {
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: try OutlineTree(nodes: []), selection: nil, expanded: nil)),
                       OutlineRowsOutput(rows: [], totalRows: 0, selectedRow: nil))
    }

    func testNestedAndFlatFormsGiveTheSameRows() throws {
        func answer(_ nodes: [OutlineNode], _ ids: [String], selection: String, expanded: [String]?) throws -> [String] {
            let result = OutlineRows.compute(OutlineRowsInput(tree: try OutlineTree(nodes: nodes), selection: ids.firstIndex(of: selection),
                                     expanded: expanded.map { $0.map { ids.firstIndex(of: $0)! } }, offset: 1, limit: 4))
            return result.rows.map { row in
                "\(row.index) \(ids[row.node]) d\(row.depth) p=\(row.parent.map { ids[$0] } ?? "-")"
                    + " \(row.expandable ? "E" : "e")\(row.expanded ? "X" : "x")\(row.selected ? "S" : "s")"
            } + ["total \(result.totalRows)", "selectedRow \(result.selectedRow.map(String.init) ?? "-")"]
        }
        let byDefault = ["1 docs d1 p=root EXs", "2 readme d2 p=docs exs", "3 guides d2 p=docs EXs",
                         "4 intro d3 p=guides exS", "total 7", "selectedRow 4"]
        let explicit = ["1 docs d1 p=root Exs", "2 src d1 p=root EXs", "3 main d2 p=src exS",
                        "4 other d0 p=- exs", "total 5", "selectedRow 3"]
        for (nodes, ids) in [(F.nested, F.nestedIds), (F.flat, F.flatIds)] {
            XCTAssertEqual(try answer(nodes, ids, selection: "intro", expanded: nil), byDefault)
            XCTAssertEqual(try answer(nodes, ids, selection: "main", expanded: ["root", "src", "readme"]), explicit)
        }
    }
}

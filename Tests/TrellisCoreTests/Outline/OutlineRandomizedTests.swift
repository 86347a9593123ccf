import TrellisTestSupport
import TrellisCore
import XCTest

final class OutlineRandomizedTests: XCTestCase {
    func testExpansionMatchesSeedModelOnRandomTrees() throws {
        var rng = SplitMix64(seed: 0x5EED_0003)
        var foundSelections = 0
        var nonEmptyExpansions = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 0...24, using: &rng)
            let roots = RandomTrees.forest(count: count, emptyChildrenArrays: Bool.random(using: &rng), using: &rng)
            let ids = RandomTrees.allIds(roots)
            let selectionIds: [Int] = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                count > 0 && Int.random(in: 0..<6, using: &rng) != 0 ? ids.randomElement(using: &rng)! : -5
            }
            var expected = Set<Int>()
            var expectedPaths = [[Int]]()
            var singleOrder = [Int]()
            for id in selectionIds {
                let model = SeedExpansionModel(nodes: roots, selection: id).checkNodes()
                expected.formUnion(model)
                expectedPaths.append(ids.contains(id) ? model.reversed() + [id] : [])
                singleOrder = model.reversed()
            }
            foundSelections += expectedPaths.filter { !$0.isEmpty }.count
            nonEmptyExpansions += expected.isEmpty ? 0 : 1

            for form in [RandomTrees.nestedForm(roots), RandomTrees.flatForm(roots, using: &rng)] {
                let tree = try OutlineTree(nodes: form.nodes)
                let result = OutlineExpansion.compute(OutlineExpansionInput(tree: tree, selections: selectionIds.map { form.index(of: $0) }))
                let expandIds = result.expand.map { form.ids[$0] }
                XCTAssertEqual(Set(expandIds), expected)
                XCTAssertEqual(expandIds.count, expected.count, "duplicates in \(expandIds)")
                var position = [Int](repeating: 0, count: tree.count)
                for (k, row) in tree.preOrderRows.enumerated() { position[row.node] = k }
                let positions = result.expand.map { position[$0] }
                XCTAssertEqual(positions, positions.sorted(), "expand not in pre-order")
                if selectionIds.count == 1 { XCTAssertEqual(expandIds, singleOrder) }
                XCTAssertEqual(result.paths.map { $0.map { form.ids[$0] } }, expectedPaths)
            }
        }
        XCTAssertGreaterThan(foundSelections, 3000)
        XCTAssertGreaterThan(nonEmptyExpansions, 1500)
    }

    func testRowsMatchRecursiveModelOnRandomTrees() throws {
        var rng = SplitMix64(seed: 0x5EED_0004)
        var windowsWithRows = 0
        for _ in 0..<2000 {
            let count = Int.random(in: 0...24, using: &rng)
            let roots = RandomTrees.forest(count: count, emptyChildrenArrays: Bool.random(using: &rng), using: &rng)
            let ids = Array(RandomTrees.allIds(roots)).sorted()
            let selection: Int? = count > 0 && Bool.random(using: &rng) ? ids.randomElement(using: &rng)! : nil
            let expandedIds: [Int]? = Bool.random(using: &rng) ? ids.filter { _ in Bool.random(using: &rng) } : nil
            let offset = Int.random(in: 0...count + 1, using: &rng)
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 0...count, using: &rng) : nil

            let defaultExpanded = Set(SeedExpansionModel(nodes: roots, selection: selection).checkNodes())
            for (isFlat, form) in [(false, RandomTrees.nestedForm(roots)), (true, RandomTrees.flatForm(roots, using: &rng))] {
                let all = RandomTrees.referenceRows(
                    roots, expanded: expandedIds.map(Set.init) ?? defaultExpanded, selection: selection, flatForm: isFlat)
                let window = Array(all.dropFirst(offset).prefix(limit ?? Int.max))
                let tree = try OutlineTree(nodes: form.nodes)
                let result = OutlineRows.compute(OutlineRowsInput(
                    tree: tree, selection: selection.flatMap { form.index(of: $0) },
                    expanded: expandedIds.map { $0.map { form.index(of: $0)! } }, offset: offset, limit: limit))
                XCTAssertEqual(result.rows.map { row in
                    RefRow(id: form.ids[row.node], depth: row.depth, parent: row.parent.map { form.ids[$0] },
                           expandable: row.expandable, expanded: row.expanded, selected: row.selected)
                }, window)
                XCTAssertEqual(result.rows.map(\.index), Array(offset..<offset + window.count))
                XCTAssertEqual(result.totalRows, all.count)
                XCTAssertEqual(result.selectedRow, all.firstIndex { $0.selected })
                windowsWithRows += window.isEmpty ? 0 : 1
            }
        }
        XCTAssertGreaterThan(windowsWithRows, 1000)
    }
}

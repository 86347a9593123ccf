import TrellisTestSupport
import XCTest
@testable import TrellisAPI

final class OutlineRandomizedEndpointTests: XCTestCase {
    private let service = TrellisService()

    /// How a tree's ids are written: integers, strings "n…", or odd ids as digit strings and even ids as integers.
    private struct IDStyle {
        let mode: Int

        func json(_ id: Int) -> String {
            switch mode {
            case 0: return String(id)
            case 1: return "\"n\(id)\""
            default: return id % 2 != 0 ? "\"\(id)\"" : String(id)
            }
        }
    }

    /// An id from a parsed response, written back as JSON text (so "1" and 1 stay apart).
    private func jsonText(_ value: Any?) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        if let number = value as? Int { return String(number) }
        return "?"
    }

    private func keys(_ rng: inout SplitMix64) -> (members: String, id: String, children: String, parent: String) {
        Bool.random(using: &rng)
            ? (#""idKey":"key","childrenKey":"kids","#, "key", "kids", "up")
            : ("", "id", "children", "parent")
    }

    func testExpansionMatchesSeedModelOnRandomTrees() throws {
        var rng = SplitMix64(seed: 0x5EED_A003)
        var found = 0
        var nonEmpty = 0
        for _ in 0..<4_000 {
            let count = Int.random(in: 0...24, using: &rng)
            let roots = RandomTrees.forest(count: count, emptyChildrenArrays: Bool.random(using: &rng), using: &rng)
            let ids = RandomTrees.allIds(roots)
            let preOrder = RandomTrees.nestedForm(roots).ids
            let style = IDStyle(mode: Int.random(in: 0...2, using: &rng))
            let key = keys(&rng)
            let selectionIds: [Int] = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                count > 0 && Int.random(in: 0..<6, using: &rng) != 0 ? ids.randomElement(using: &rng)! : -5
            }
            let selectionMember: String
            if selectionIds.count == 1 && Bool.random(using: &rng) {
                selectionMember = #""selection":\#(style.json(selectionIds[0]))"#
            } else if selectionIds.isEmpty && Bool.random(using: &rng) {
                selectionMember = #""selection":null"#
            } else {
                selectionMember = #""selections":[\#(selectionIds.map(style.json).joined(separator: ","))]"#
            }

            var expected = Set<String>()
            var expectedPaths: [[String: String]] = []
            for id in selectionIds {
                let model = SeedExpansionModel(nodes: roots, selection: id).checkNodes()
                expected.formUnion(model.map(style.json))
                let path = ids.contains(id) ? (model.reversed() + [id]).map(style.json) : []
                expectedPaths.append(["id": style.json(id), "found": String(ids.contains(id)), "path": path.joined(separator: ",")])
            }
            found += expectedPaths.filter { $0["found"] == "true" }.count
            nonEmpty += expected.isEmpty ? 0 : 1

            let nested = OutlineJSON.nested(roots, id: style.json, idKey: key.id, childrenKey: key.children)
            let flat = OutlineJSON.flat(RandomTrees.flatForm(roots, using: &rng), id: style.json, idKey: key.id, parentKey: key.parent)
            for body in [#"{\#(key.members)"nodes":\#(nested),\#(selectionMember)}"#,
                         #"{\#(key.members)"parentKey":"\#(key.parent)","nodes":\#(flat),\#(selectionMember)}"#] {
                let response = call(service, "POST", "/v1/outline/expansion", json: body)
                XCTAssertEqual(response.status, 200, body)
                let expand = (response.json["expand"] as? [Any] ?? []).map(jsonText)
                XCTAssertEqual(Set(expand), expected, body)
                XCTAssertEqual(expand.count, expected.count, "duplicates in \(expand)")
                let positions = expand.map { id in preOrder.firstIndex { style.json($0) == id } ?? -1 }
                XCTAssertEqual(positions, positions.sorted(), "expand not in pre-order: \(body)")
                let paths = (response.json["paths"] as? [[String: Any]] ?? []).map { entry in
                    ["id": jsonText(entry["id"]), "found": String(entry["found"] as? Bool ?? false),
                     "path": (entry["path"] as? [Any] ?? []).map(jsonText).joined(separator: ",")]
                }
                XCTAssertEqual(paths, expectedPaths, body)
            }
        }
        XCTAssertGreaterThan(found, 3_000)
        XCTAssertGreaterThan(nonEmpty, 1_500)
    }

    func testRowsMatchRecursiveModelOnRandomTrees() throws {
        var rng = SplitMix64(seed: 0x5EED_A004)
        var windowsWithRows = 0
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...24, using: &rng)
            let roots = RandomTrees.forest(count: count, emptyChildrenArrays: Bool.random(using: &rng), using: &rng)
            let ids = Array(RandomTrees.allIds(roots)).sorted()
            let style = IDStyle(mode: Int.random(in: 0...2, using: &rng))
            let key = keys(&rng)
            let selection: Int? = count > 0 && Bool.random(using: &rng) ? ids.randomElement(using: &rng)! : nil
            let expandedIds: [Int]? = Bool.random(using: &rng) ? ids.filter { _ in Bool.random(using: &rng) } + [-5] : nil
            let offset = Int.random(in: 0...count + 1, using: &rng)
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 0...count, using: &rng) : nil
            var members = #""offset":\#(offset)"#
            if let selection { members += #","selection":\#(style.json(selection))"# }
            if let expandedIds { members += #","expanded":[\#(expandedIds.map(style.json).joined(separator: ","))]"# }
            if let limit { members += #","limit":\#(limit)"# }

            let defaultExpanded = Set(SeedExpansionModel(nodes: roots, selection: selection).checkNodes())
            let nested = OutlineJSON.nested(roots, id: style.json, idKey: key.id, childrenKey: key.children)
            let flat = OutlineJSON.flat(RandomTrees.flatForm(roots, using: &rng), id: style.json, idKey: key.id, parentKey: key.parent)
            for (isFlat, body) in [(false, #"{\#(key.members)"nodes":\#(nested),\#(members)}"#),
                                   (true, #"{\#(key.members)"parentKey":"\#(key.parent)","nodes":\#(flat),\#(members)}"#)] {
                let all = RandomTrees.referenceRows(
                    roots, expanded: expandedIds.map(Set.init) ?? defaultExpanded, selection: selection, flatForm: isFlat)
                let window = Array(all.enumerated().dropFirst(offset).prefix(limit ?? Int.max))
                let expectedRows = window.map { index, row in
                    "\(index) \(style.json(row.id)) \(row.depth) \(row.parent.map(style.json) ?? "null") "
                        + "\(row.expandable) \(row.expanded) \(row.selected)"
                }
                let response = call(service, "POST", "/v1/outline/rows", json: body)
                XCTAssertEqual(response.status, 200, body)
                let rows = (response.json["rows"] as? [[String: Any]] ?? []).map { row in
                    "\(row["index"] as? Int ?? -1) \(jsonText(row["id"])) \(row["depth"] as? Int ?? -1) "
                        + "\(row["parent"] is NSNull ? "null" : jsonText(row["parent"])) "
                        + "\(row["expandable"] as? Bool ?? false) \(row["expanded"] as? Bool ?? false) \(row["selected"] as? Bool ?? false)"
                }
                XCTAssertEqual(rows, expectedRows, body)
                XCTAssertEqual(response.json["totalRows"] as? Int, all.count)
                XCTAssertEqual(response.json["selectedRow"] as? Int, all.firstIndex { $0.selected })
                XCTAssertEqual((response.json["noSelection"] as? [String: Any])?["selected"] as? Bool, selection == nil)
                windowsWithRows += window.isEmpty ? 0 : 1
            }
        }
        XCTAssertGreaterThan(windowsWithRows, 1_000)
    }
}

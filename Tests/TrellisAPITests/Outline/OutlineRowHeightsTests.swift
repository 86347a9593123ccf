import Foundation
import TrellisCore
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// POST /v1/outline/rows with `rowHeights`: every visible row's label wraps as a list's paragraph at the row's width
/// less its indentation and padding, so each row's height and offset are POST /v1/list/layout's for the same rows; the
/// scroll offset that brings the selected row into view follows a reference model; every problem has its pointer.
final class OutlineRowHeightsTests: XCTestCase {
    private let service = TestFonts.service()

    private func post(_ path: String, _ body: Any, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let response = call(service, "POST", path, json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.json
    }

    private func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    private static let words = ["Documents", "photos", "2026", "明太子パスタ", "README.md", "a", "very-long-file-name-without-spaces.swift",
                                "notes", "🎉", "Projects", "archive (old)"]

    func testRowsAreAListsRowsOfTheirLabels() throws {
        var rng = SplitMix64(seed: 0x0_7117_0001)
        var rowsChecked = 0
        var wrapped = 0
        for _ in 0..<40 {
            let count = Int.random(in: 1...40, using: &rng)
            var nodes: [[String: Any]] = []
            for i in 0..<count {
                var node: [String: Any] = ["id": i, "parent": i == 0 || Int.random(in: 0..<4, using: &rng) == 0 ? NSNull() : Int.random(in: 0..<i, using: &rng) as Any]
                if Int.random(in: 0..<8, using: &rng) != 0 {
                    node["name"] = (0..<Int.random(in: 1...8, using: &rng)).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
                }
                nodes.append(node)
            }
            let width = Double(Int.random(in: 480...1600, using: &rng)) / 4
            let indent = Double(Int.random(in: 0...96, using: &rng)) / 4
            let padding: [String: Double] = ["top": Double(Int.random(in: 0...32, using: &rng)) / 4, "bottom": 4,
                                             "leading": Double(Int.random(in: 0...80, using: &rng)) / 4, "trailing": 8]
            let minHeight = Double(Int.random(in: 0...160, using: &rng)) / 4
            let gap = Double(Int.random(in: 0...16, using: &rng)) / 4
            let font: [String: Any] = ["family": "DejaVu Sans, IPAGothic, Noto Color Emoji", "size": 14]
            var rowHeights: [String: Any] = ["font": font, "width": width, "labelKey": "name", "indent": indent, "padding": padding,
                                             "minHeight": minHeight, "gap": gap]
            if Bool.random(using: &rng) { rowHeights.merge(["maxLines": 2, "textOverflow": "ellipsis"]) { a, _ in a } }
            let viewport = Double(Int.random(in: 40...400, using: &rng))
            let scrollOffset = Double(Int.random(in: -40...800, using: &rng))
            rowHeights["viewportHeight"] = viewport
            rowHeights["scrollOffset"] = scrollOffset
            let selection = Int.random(in: 0..<count, using: &rng)
            let answer = try post("/v1/outline/rows", ["nodes": nodes, "parentKey": "parent", "selection": selection,
                                                       "expanded": Array(0..<count), "rowHeights": rowHeights])
            let rows = answer["rows"] as? [[String: Any]] ?? []
            // The same rows as a list: each label a paragraph, the row's indentation added to its leading padding.
            let listRows: [[String: Any]] = rows.map { row in
                let node = nodes[row["id"] as? Int ?? 0]
                let depth = Double(row["depth"] as? Int ?? 0)
                var listPadding = padding
                listPadding["leading"] = (padding["leading"] ?? 0) + depth * indent
                var listRow: [String: Any] = ["padding": listPadding, "minHeight": minHeight]
                if let name = node["name"] as? String { listRow["texts"] = [name] }
                return listRow
            }
            var list: [String: Any] = ["font": font, "width": width, "gap": gap, "rows": listRows]
            if rowHeights["maxLines"] != nil { list["maxLines"] = 2; list["textOverflow"] = "ellipsis" }
            let layout = (try post("/v1/list/layout", list)["layouts"] as? [[String: Any]])?.first ?? [:]
            let heights = (layout["heights"] as? [NSNumber] ?? []).map(\.doubleValue)
            XCTAssertEqual(rows.map { number($0["height"]) }, heights)
            XCTAssertEqual(rows.map { number($0["offset"]) }, (layout["offsets"] as? [NSNumber] ?? []).map(\.doubleValue))
            XCTAssertEqual(number(answer["totalHeight"]), number(layout["total"]))
            rowsChecked += rows.count
            wrapped += heights.filter { $0 > max(minHeight, 30) }.count
            // The selected row brought into view from where the picker is scrolled: the least move that shows it whole
            // (its top at the top when it is taller than the viewport), within the scroll range.
            let selected = try XCTUnwrap(answer["selectedRow"] as? Int)
            let top = number(rows[selected]["offset"]), height = number(rows[selected]["height"]), total = number(answer["totalHeight"])
            let range = max(0, total - viewport)
            let current = min(max(scrollOffset, 0), range)
            var expected = current
            if top < current || height >= viewport { expected = top } else if top + height > current + viewport { expected = top + height - viewport }
            XCTAssertEqual(number(answer["selectedScrollOffset"]), min(max(expected, 0), range))
            XCTAssertGreaterThanOrEqual(number(answer["selectedScrollOffset"]) + viewport, min(top + min(height, viewport), total))
        }
        XCTAssertGreaterThan(rowsChecked, 500)
        XCTAssertGreaterThan(wrapped, 50, "labels that wrap")
    }

    /// A window of rows answers the same heights and offsets as the whole list, and a search's rows have theirs.
    func testAWindowAndASearchHaveTheWholeListsHeights() throws {
        let nodes: [[String: Any]] = (0..<30).map { i in
            ["id": "n\(i)", "label": "Folder \(i) " + String(repeating: "with a longer name ", count: i % 4), "parent": i == 0 ? NSNull() : "n\((i - 1) / 3)" as Any]
        }
        let rowHeights: [String: Any] = ["font": ["family": "DejaVu Sans", "size": 15], "width": 180, "indent": 16,
                                         "padding": ["top": 4, "bottom": 4, "leading": 8, "trailing": 8]]
        let expanded = (0..<30).map { "n\($0)" }
        let whole = try post("/v1/outline/rows", ["nodes": nodes, "parentKey": "parent", "expanded": expanded, "rowHeights": rowHeights])
        let window = try post("/v1/outline/rows", ["nodes": nodes, "parentKey": "parent", "expanded": expanded, "offset": 10, "limit": 5,
                                                   "rowHeights": rowHeights])
        let all = whole["rows"] as? [[String: Any]] ?? []
        let some = window["rows"] as? [[String: Any]] ?? []
        XCTAssertEqual(some.count, 5)
        XCTAssertEqual(some.map { number($0["offset"]) }, all[10..<15].map { number($0["offset"]) })
        XCTAssertEqual(some.map { number($0["height"]) }, all[10..<15].map { number($0["height"]) })
        XCTAssertEqual(number(window["totalHeight"]), number(whole["totalHeight"]))
        XCTAssertNil(whole["selectedScrollOffset"], "no viewport, no scroll offset")
        let searched = try post("/v1/outline/rows", ["nodes": nodes, "parentKey": "parent", "search": ["query": "longer"],
                                                     "selection": "nope", "rowHeights": rowHeights.merging(["viewportHeight": 100]) { a, _ in a }])
        let matches = searched["rows"] as? [[String: Any]] ?? []
        XCTAssertFalse(matches.isEmpty)
        XCTAssertTrue(matches.allSatisfy { $0["height"] != nil && $0["offset"] != nil })
        XCTAssertTrue(searched["selectedScrollOffset"] is NSNull, "the selection is not a row")
    }

    func testEveryProblemHasItsPointer() {
        func pointers(_ json: String) -> [String] {
            let response = call(service, "POST", "/v1/outline/rows", json: json)
            XCTAssertEqual(response.status, 422, response.text)
            return (response.json["errors"] as? [[String: String]] ?? []).map { $0["pointer"] ?? "?" }
        }
        XCTAssertEqual(pointers(#"{"nodes":[{"id":1}],"rowHeights":{"indent":-1,"padding":{"top":"x"},"viewportHeight":-2,"maxLines":0}}"#).sorted(),
                       ["/rowHeights/font", "/rowHeights/indent", "/rowHeights/maxLines", "/rowHeights/padding/top", "/rowHeights/viewportHeight",
                        "/rowHeights/width"])
        let font = #""font":{"family":"DejaVu Sans","size":15}"#
        XCTAssertEqual(pointers(#"{"nodes":[{"id":1,"label":"ok","children":[{"id":2,"label":"a\u0007b"}]}],"selection":2,"rowHeights":{\#(font),"width":200}}"#),
                       ["/nodes/0/children/0/label"])
        let long = String(repeating: "x", count: 4097)
        XCTAssertEqual(pointers(#"{"nodes":[{"id":1,"label":"\#(long)"}],"rowHeights":{\#(font),"width":200}}"#), ["/nodes/0/label"])
        // A label on a row nobody sees is not read.
        let hidden = call(service, "POST", "/v1/outline/rows",
                          json: #"{"nodes":[{"id":1,"label":"ok","children":[{"id":2,"label":"a\u0007b"}]}],"rowHeights":{\#(font),"width":200}}"#)
        XCTAssertEqual(hidden.status, 200, hidden.text)
    }
}

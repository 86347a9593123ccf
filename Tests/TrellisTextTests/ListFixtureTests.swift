import Foundation
import TrellisAPI
import XCTest
import TrellisTestSupport

/// Browser-laid-out virtual lists (scripts/genlist/genlist.py): POST /v1/list/layout answers every row's
/// height and offset and the list's height exactly as Chromium laid the same rows out as `div`s, at every width.
final class ListFixtureTests: XCTestCase {
    private static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    }

    func testEveryChromiumList() throws {
        try check("lists.jsonl", minimumLayouts: 100)
    }

    func testEveryChromiumListOfTheHoldOutSet() throws {
        try check("lists-holdout.jsonl", minimumLayouts: 50)
    }

    private func numbers(_ value: Any?) -> [Double] { (value as? [NSNumber] ?? []).map(\.doubleValue) }

    private func check(_ name: String, minimumLayouts: Int) throws {
        let service = TestFonts.service()
        let lines = try String(contentsOf: Self.url(name), encoding: .utf8).split(separator: "\n").dropFirst()
        var layouts = 0
        var rows = 0
        var differing: [String] = []
        for line in lines {
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try XCTUnwrap(fixture["id"] as? String)
            guard FixtureFilter.includes(id) else { continue }
            let request = String(decoding: try JSONSerialization.data(withJSONObject: try XCTUnwrap(fixture["request"])), as: UTF8.self)
            let response = call(service, "POST", "/v1/list/layout", json: request)
            XCTAssertEqual(response.status, 200, "\(id): \(response.text.prefix(400))")
            let answered = response.json["layouts"] as? [[String: Any]] ?? []
            let expected = try XCTUnwrap(fixture["expected"] as? [[String: Any]])
            XCTAssertEqual(answered.count, expected.count, id)
            for (number, (answer, chromium)) in zip(answered, expected).enumerated() {
                layouts += 1
                rows += numbers(chromium["heights"]).count
                let same = numbers(answer["heights"]) == numbers(chromium["heights"])
                    && numbers(answer["offsets"]) == numbers(chromium["offsets"])
                    && (answer["total"] as? NSNumber)?.doubleValue == (chromium["total"] as? NSNumber)?.doubleValue
                if !same {
                    let heights = zip(numbers(answer["heights"]), numbers(chromium["heights"])).enumerated().filter { $0.element.0 != $0.element.1 }
                    differing.append("\(id)/\(number) at width \(chromium["width"] ?? "?"): rows \(heights.map { "\($0.offset): \($0.element.0) vs Chromium \($0.element.1)" })")
                }
                if FixtureFilter.isActive { print("\(id)/\(number): Trellis \(answer)\nChromium \(chromium)") }
            }
        }
        XCTAssertGreaterThanOrEqual(layouts, FixtureFilter.isActive ? 0 : minimumLayouts, "run make list-fixtures")
        XCTAssertEqual(differing, [], "\(differing.count) of \(layouts) list layouts differ from Chromium")
        print("\(name): \(layouts - differing.count) of \(layouts) list layouts (\(rows) rows) equal Chromium's")
    }
}

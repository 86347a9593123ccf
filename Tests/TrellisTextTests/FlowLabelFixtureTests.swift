import Foundation
import TrellisHTTP
import TrellisAPI
import XCTest
import TrellisTestSupport

/// Browser-rendered flows of labels (scripts/gentext/gentext.py): POST /v1/flow/layout with text items,
/// a font and labelPadding places every chip within 1/32 px of Chromium's flexbox.
final class FlowLabelFixtureTests: XCTestCase {
    private static let tolerance = 1.0 / 32

    private static var file: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/flow.jsonl")
    }

    private func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    /// A fixture's request POSTed to /v1/flow/layout: the status and the answer's text.
    private func post(_ fixture: [String: Any], to service: TrellisService) throws -> (status: Int, text: String) {
        let request = try JSONSerialization.data(withJSONObject: try XCTUnwrap(fixture["request"]))
        var headers = TrellisHeaders()
        headers.add("Content-Type", "application/json")
        let response = request.withUnsafeBytes { body in
            service.handle(TrellisRequest(method: "POST", path: "/v1/flow/layout", headers: headers, body: body))
        }
        return (response.status, String(decoding: response.body.bytes, as: UTF8.self))
    }

    func testEveryChromiumFlowOfLabels() throws {
        let service = TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertGreaterThanOrEqual(lines.count, FixtureFilter.isActive ? 0 : 100, "run make text-fixtures")
        var worst = 0.0
        for (number, line) in lines.enumerated() {
            guard FixtureFilter.includes("flow \(number)") else { continue }
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let expected = try XCTUnwrap(fixture["expected"] as? [String: Any])
            let (status, text) = try post(fixture, to: service)
            if FixtureFilter.isActive { print("flow \(number): Trellis \(text)\nChromium \(expected)") }
            XCTAssertEqual(status, 200, "flow \(number): \(text)")
            let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let items = answer["items"] as? [[String: Any]] ?? []
            let rects = try XCTUnwrap(expected["items"] as? [[String: Any]])
            XCTAssertEqual(items.count, rects.count, "flow \(number)")
            let height = self.number((answer["size"] as? [String: Any])?["height"])
            XCTAssertEqual(height, self.number(expected["height"]), accuracy: Self.tolerance, "flow \(number): height")
            worst = max(worst, abs(height - self.number(expected["height"])))
            for (item, rect) in zip(items, rects) {
                for key in ["x", "y", "width", "height"] {
                    let deviation = abs(self.number(item[key]) - self.number(rect[key]))
                    worst = max(worst, deviation)
                    XCTAssertLessThanOrEqual(deviation, Self.tolerance, "flow \(number) item \(item["index"] ?? "?") \(key): \(item[key] ?? "?") vs Chromium \(rect[key] ?? "?")")
                }
            }
        }
        print("Chromium flows of labels: \(lines.count) flows, worst deviation \(worst) px")
    }

    /// A flow of the CSS text properties' set (scripts/gentext/genchips.py) that differs from Chromium, and why.
    private struct Divergence: Decodable {
        var set: String
        var flow: Int
        var reason: String
    }

    /// Browser-rendered flows of labels with the CSS text properties (scripts/gentext/genchips.py): every chip's rectangle
    /// within 1/32 px, every line start of a label laid out as a paragraph exactly, and each line's x (but an
    /// ellipsis's line) within 1/64 px; a label answered without lines is one line in Chromium. Prints a table per
    /// property; fails on a difference not listed in flow-css-divergences.json with its reason, and on a listed flow
    /// that agrees.
    func testEveryChromiumFlowOfLabelsWithTheCSSTextProperties() throws {
        let service = TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        let directory = Self.file.deletingLastPathComponent()
        let listed = try JSONDecoder().decode(
            [Divergence].self, from: Data(contentsOf: directory.appendingPathComponent("flow-css-divergences.json")))
        var unused = Set(listed.map { "\($0.set) \($0.flow)" })
        for set in ["flow-css", "flow-css-holdout"] {
            let lines = try String(contentsOf: directory.appendingPathComponent(set + ".jsonl"), encoding: .utf8)
                .split(separator: "\n").dropFirst()
            XCTAssertGreaterThanOrEqual(lines.count, FixtureFilter.isActive ? 0 : 100, "run scripts/gentext/genchips.py")
            // Per group: flows, flows that agree, labels, labels that agree.
            var table: [String: (flows: Int, agree: Int, labels: Int, labelsAgree: Int)] = [:]
            var order: [String] = []
            for (number, line) in lines.enumerated() {
                let name = "\(set) \(number)"
                guard FixtureFilter.includes(name) else { continue }
                let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let group = try XCTUnwrap(fixture["group"] as? String)
                if table[group] == nil { order.append(group) }
                let expected = try XCTUnwrap(fixture["expected"] as? [String: Any])
                let (status, text) = try post(fixture, to: service)
                XCTAssertEqual(status, 200, "\(name): \(text)")
                let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let items = answer["items"] as? [[String: Any]] ?? []
                let chromium = try XCTUnwrap(expected["items"] as? [[String: Any]])
                var differences: [String] = []
                if abs(self.number((answer["size"] as? [String: Any])?["height"]) - self.number(expected["height"])) > Self.tolerance {
                    differences.append("height \(answer["size"] ?? "?") vs Chromium \(expected["height"] ?? "?")")
                }
                if items.count != chromium.count { differences.append("\(items.count) items vs Chromium \(chromium.count)") }
                var labelsAgree = 0
                for (index, (item, rect)) in zip(items, chromium).enumerated() {
                    var itemDifferences: [String] = []
                    for key in ["x", "y", "width", "height"] where abs(self.number(item[key]) - self.number(rect[key])) > Self.tolerance {
                        itemDifferences.append("\(key) \(item[key] ?? "?") vs Chromium \(rect[key] ?? "?")")
                    }
                    // A narrowed label shows at most maxLines lines (Chromium reports the clamped ones' boxes too).
                    let given = ((fixture["request"] as? [String: Any])?["items"] as? [[String: Any]])?[index]
                    let shown = given?["maxWidth"] == nil ? Int.max : (given?["maxLines"] as? Int) ?? 1
                    let starts = Array(((rect["starts"] as? [Int]) ?? []).prefix(shown))
                    let xs = Array(((rect["xs"] as? [Any]) ?? []).prefix(shown))
                    if let lines = item["lines"] as? [[String: Any]] {
                        let ours = lines.map { ($0["start"] as? Int) ?? -1 }
                        if ours != starts { itemDifferences.append("line starts \(ours) vs Chromium \(starts)") }
                        let ellipsisLine = (item["ellipsis"] as? [String: Any])?["line"] as? Int
                        for (k, (line, x)) in zip(lines, xs).enumerated() where k != ellipsisLine {
                            guard let x = (x as? NSNumber)?.doubleValue else { continue }
                            let ourX = (line["x"] as? NSNumber)?.doubleValue ?? 0
                            if abs(ourX - x) > 1.0 / 64 { itemDifferences.append("line \(k) x \(ourX) vs Chromium \(x)") }
                        }
                    } else if starts.count > 1 {
                        itemDifferences.append("one line vs Chromium's starts \(starts)")
                    }
                    if itemDifferences.isEmpty { labelsAgree += 1 }
                    differences += itemDifferences.map { "item \(index): \($0)" }
                }
                var row = table[group] ?? (0, 0, 0, 0)
                row.flows += 1
                row.labels += chromium.count
                row.labelsAgree += labelsAgree
                if differences.isEmpty { row.agree += 1 }
                table[group] = row
                let isListed = unused.remove(name) != nil
                if FixtureFilter.isActive { print("\(name): Trellis \(text)\nChromium \(expected)") }
                if !differences.isEmpty && !isListed {
                    XCTFail("\(name) (\(group)) differs from Chromium: \(differences.joined(separator: "; "))")
                } else if differences.isEmpty && isListed {
                    XCTFail("\(name) is listed as a divergence but agrees with Chromium")
                }
            }
            print("Chromium flows of labels with the CSS text properties, \(set): flows (labels) agreeing in every rectangle, line start and x")
            for group in order {
                let row = table[group] ?? (0, 0, 0, 0)
                print("  \(group): \(row.agree) of \(row.flows) flows (\(row.labelsAgree) of \(row.labels) labels)")
            }
        }
        if !FixtureFilter.isActive { XCTAssertEqual(unused, [], "listed divergences not in the fixtures") }
    }
}

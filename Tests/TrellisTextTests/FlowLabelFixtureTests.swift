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

    func testEveryChromiumFlowOfLabels() throws {
        let service = TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertGreaterThanOrEqual(lines.count, FixtureFilter.isActive ? 0 : 100, "run make text-fixtures")
        var worst = 0.0
        for (number, line) in lines.enumerated() {
            guard FixtureFilter.includes("flow \(number)") else { continue }
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let request = try JSONSerialization.data(withJSONObject: try XCTUnwrap(fixture["request"]))
            let expected = try XCTUnwrap(fixture["expected"] as? [String: Any])
            var headers = TrellisHeaders()
            headers.add("Content-Type", "application/json")
            let response = request.withUnsafeBytes { body in
                service.handle(TrellisRequest(method: "POST", path: "/v1/flow/layout", headers: headers, body: body))
            }
            let text = String(decoding: response.body.bytes, as: UTF8.self)
            if FixtureFilter.isActive { print("flow \(number): Trellis \(text)\nChromium \(expected)") }
            XCTAssertEqual(response.status, 200, "flow \(number): \(text)")
            let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body.bytes)) as? [String: Any])
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
}

import Foundation
import TrellisCore
import TrellisTestSupport
import XCTest

/// Browser-rendered fixtures (scripts/gentest/gentest.py): every case's item rectangles within 1/32 px of Chromium's.
final class FlowFixtureTests: XCTestCase {
    private static let tolerance = 1.0 / 32

    private static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    private func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    private func request(_ json: [String: Any]) throws -> FlowInput {
        let items = try XCTUnwrap(json["items"] as? [[String: Any]]).map { item in
            FlowItem(
                width: number(item["width"]) ?? .nan,
                height: number(item["height"]) ?? .nan,
                breakBefore: (item["breakBefore"] as? Bool) ?? (item["breakBefore"] as? NSNumber)?.boolValue ?? false
            )
        }
        return FlowInput(
            containerWidth: try XCTUnwrap(number(json["containerWidth"])),
            items: items,
            horizontalSpacing: number(json["horizontalSpacing"]) ?? 0,
            verticalSpacing: number(json["verticalSpacing"]) ?? 0,
            columnGap: number(json["columnGap"]) ?? 0,
            rowGap: number(json["rowGap"]) ?? 0,
            alignment: try XCTUnwrap(named(FlowAlignment.self, json["alignment"] as? String ?? "leading")),
            rowAlignment: try XCTUnwrap(named(FlowRowAlignment.self, json["rowAlignment"] as? String ?? "top")),
            direction: try XCTUnwrap(named(FlowDirection.self, json["direction"] as? String ?? "ltr"))
        )
    }

    func testEveryBrowserFixture() throws {
        let files = try FileManager.default
            .contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertGreaterThanOrEqual(files.count, FixtureFilter.isActive ? 0 : 300, "run python3 scripts/gentest/gentest.py")
        var worst = 0.0
        for file in files {
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let name = fixture["name"] as? String ?? file.lastPathComponent
            guard FixtureFilter.includes(name) else { continue }
            let expected = try XCTUnwrap(fixture["expected"] as? [String: Any], name)
            let result = FlowLayout.compute(try request(try XCTUnwrap(fixture["request"] as? [String: Any], name)))
            if FixtureFilter.isActive {
                let frames = result.items.map { item in "\(item.index): \(String(describing: item.rect))" }
                print(name + ": " + frames.joined(separator: ", ") + " height \(result.size.height)")
            }
            let rects = try XCTUnwrap(expected["items"] as? [[String: Any]], name)
            XCTAssertEqual(result.items.count, rects.count, "\(name): item count")
            XCTAssertEqual(result.size.height, number(expected["height"]) ?? .nan, accuracy: Self.tolerance, "\(name): height")
            for (item, rect) in zip(result.items, rects) {
                XCTAssertEqual(item.index, (rect["index"] as? NSNumber)?.intValue, "\(name): index")
                let pairs = [
                    ("x", item.rect.x), ("y", item.rect.y), ("width", item.rect.width), ("height", item.rect.height),
                ]
                for (key, value) in pairs {
                    let browser = number(rect[key]) ?? .nan
                    worst = max(worst, abs(value - browser))
                    XCTAssertEqual(value, browser, accuracy: Self.tolerance, "\(name): item \(item.index) \(key)")
                }
            }
        }
        print("\(files.count) browser fixtures, largest difference \(worst) px")
    }

    /// The case whose name the fixture spells (the fixtures use the API's spellings, which are the case names).
    private func named<E: CaseIterable>(_ type: E.Type, _ name: String) -> E? {
        E.allCases.first { "\($0)" == name }
    }
}

import Foundation
import TrellisText
import XCTest
import TrellisTestSupport

/// Browser-measured fixtures (scripts/gentext/gentext.py): every text's width and line height within
/// 1/32 px of Chromium's.
final class ChromiumFixtureTests: XCTestCase {
    private static let tolerance = 1.0 / 32

    private static var file: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/measure.jsonl")
    }

    func testEveryChromiumMeasurement() throws {
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertGreaterThanOrEqual(lines.count, FixtureFilter.isActive ? 0 : 1500, "run make text-fixtures")
        var worstWidth = 0.0
        var worstHeight = 0.0
        var failures = 0
        for (number, line) in lines.enumerated() {
            guard FixtureFilter.includes("m\(number + 1)") else { continue }
            let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let family = try XCTUnwrap(entry["family"] as? String)
            let size = try XCTUnwrap((entry["size"] as? NSNumber)?.doubleValue)
            let weight = try XCTUnwrap((entry["weight"] as? NSNumber)?.intValue)
            let style = try XCTUnwrap(FontStyle.allCases.first { "\($0)" == entry["style"] as? String })
            let text = try XCTUnwrap(entry["text"] as? String)
            let width = try XCTUnwrap((entry["width"] as? NSNumber)?.doubleValue)
            let height = try XCTUnwrap((entry["height"] as? NSNumber)?.doubleValue)
            let context = "m\(number + 1): \(family) \(size)px \(weight) \(style) \"\(text)\""
            let font = try XCTUnwrap(TestFonts.font(family, size: size, weight: weight, style: style), context)
            let measurer = TextMeasurer(font: font)
            guard case .success(let measured) = measurer.width(of: text) else {
                XCTFail("\(context): not measured: \(measurer.width(of: text))")
                continue
            }
            if FixtureFilter.isActive { print("\(context): width \(measured) (Chromium \(width)), height \(font.lineMetrics.lineHeight) (Chromium \(height))") }
            worstWidth = max(worstWidth, abs(measured - width))
            worstHeight = max(worstHeight, abs(font.lineMetrics.lineHeight - height))
            if abs(measured - width) > Self.tolerance || abs(font.lineMetrics.lineHeight - height) > Self.tolerance {
                failures += 1
                if failures <= 40 {
                    XCTFail("\(context): width \(measured) (Chromium \(width)), height \(font.lineMetrics.lineHeight) (Chromium \(height))")
                }
            }
        }
        XCTAssertEqual(failures, 0)
        print("Chromium text fixtures: \(lines.count) cases, worst width deviation \(worstWidth) px, worst height deviation \(worstHeight) px")
    }
}

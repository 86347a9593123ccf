import Foundation
import TrellisAPI
import TrellisText
import XCTest
import TrellisTestSupport

/// Browser-measured fixtures for user fonts (scripts/gentext/genfonts.py): every case's `@font-face` rules are
/// stored as a client uploads them (SHA-256, OTS, the store), declared with their descriptors in CSS syntax and
/// matched as a request's `fontFaces`; every width within 1/64 px, every line height, line start and block height
/// exactly, except the documented divergences (Fixtures/font-divergences.json, each with its reason and each
/// checked to still differ).
final class FontFixtureTests: XCTestCase {
    static let widthTolerance = 1.0 / 64 + 1e-9

    private static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    }

    func testEveryChromiumMeasurementAndParagraphInUploadedFonts() throws {
        try check("fonts.jsonl", minimumMeasurements: 400, minimumLayouts: 1200)
    }

    func testEveryChromiumMeasurementAndParagraphOfTheHoldOutSet() throws {
        try check("fonts-holdout.jsonl", minimumMeasurements: 300, minimumLayouts: 400)
    }

    /// The fonts of a fixture file, stored as uploads are: name → the stored font.
    private func store(_ header: [String: Any]) throws -> [String: StoredFont] {
        let library = FontLibrary(storeBytes: 512 << 20, maxFontBytes: 16 << 20)
        var stored: [String: StoredFont] = [:]
        for (name, entry) in try XCTUnwrap(header["files"] as? [String: [String: String]]) {
            let path = try entry["path"] ?? Self.url(XCTUnwrap(entry["file"])).path
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard case .success(let result) = bytes.withUnsafeBytes({ library.store($0) }) else {
                XCTFail("\(name): not stored: \(bytes.withUnsafeBytes { library.store($0) })")
                continue
            }
            // The very bytes the fixtures were made with (a package update would measure another font).
            XCTAssertEqual(result.font.id.description, "sha256-" + (entry["sha256"] ?? ""), "\(path) changed since the fixtures were made")
            stored[name] = result.font
        }
        return stored
    }

    /// A declaration's rules, read from CSS syntax as a request's fontFaces are.
    static func rules(_ declaration: [[String: String]], _ fonts: [String: StoredFont]) throws -> [FontFaceRule] {
        try declaration.map { entry in
            let font = try XCTUnwrap(fonts[XCTUnwrap(entry["src"])])
            var capabilities = SelectionCapabilities()
            if let text = entry["weight"] { capabilities.weight = try FontDescriptorSyntax.weightRange(text).get() ?? capabilities.weight }
            if let text = entry["style"] { capabilities.slope = try FontDescriptorSyntax.slopeRange(text).get() ?? capabilities.slope }
            if let text = entry["stretch"] { capabilities.width = try FontDescriptorSyntax.widthRange(text).get() ?? capabilities.width }
            return FontFaceRule(
                family: try XCTUnwrap(entry["family"]), face: try XCTUnwrap(font.faces.first), capabilities: capabilities,
                unicodeRange: try entry["unicodeRange"].map { try FontDescriptorSyntax.unicodeRange($0).get() },
                features: try entry["featureSettings"].map { try FontDescriptorSyntax.featureSettings($0).get() } ?? [],
                variations: try entry["variationSettings"].map { try FontDescriptorSyntax.variationSettings($0).get() } ?? [])
        }
    }

    /// The element's font, read as a request's `font` is.
    static func font(_ spec: [String: Any], _ rules: [FontFaceRule]) throws -> TextFont {
        let size = try XCTUnwrap((spec["size"] as? NSNumber)?.doubleValue)
        let (style, slope) = try FontDescriptorSyntax.style(spec["style"] as? String ?? "normal").get()
        let weight = (spec["weight"] as? NSNumber)?.doubleValue ?? 400
        let properties = FontProperties(
            size: size, weight: weight,
            width: try (spec["stretch"] as? String).map { try XCTUnwrap(FontDescriptorSyntax.stretch($0)) } ?? 100,
            style: style, slope: slope,
            features: try (spec["featureSettings"] as? String).map { try FontDescriptorSyntax.featureSettings($0).get() } ?? [],
            variations: try (spec["variationSettings"] as? String).map { try FontDescriptorSyntax.variationSettings($0).get() } ?? [],
            opticalSizing: spec["opticalSizing"] as? String != "none")
        let entries = try FontFamilyList.parse(XCTUnwrap(spec["family"] as? String)).get()
        let resolved = try TestFonts.collection.resolve(entries, properties: properties, declared: rules).get()
        let font = TextFont(faces: resolved.faces, settings: resolved.settings, size: size, primary: resolved.primary)
        return try XCTUnwrap(font?.withStandard(TestFonts.collection.standardFace(weight: Int(weight), style: style)))
    }

    private func check(_ name: String, minimumMeasurements: Int, minimumLayouts: Int) throws {
        let lines = try String(contentsOf: Self.url(name), encoding: .utf8).split(separator: "\n")
        let header = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(lines.first).utf8)) as? [String: Any])
        let fonts = try store(header)
        let declarations = try XCTUnwrap(header["declarations"] as? [String: [[String: String]]])
        let divergences = try Self.divergences()
        var measurements = (total: 0, widths: 0, heights: 0)
        var layouts = (total: 0, starts: 0, heights: 0)
        var byDeclaration: [String: (cases: Int, agree: Int)] = [:]
        var failures = 0
        var listedAgreeing: [String] = []
        for line in lines.dropFirst() {
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try XCTUnwrap(fixture["id"] as? String)
            guard FixtureFilter.includes(id) else { continue }
            let declaration = try XCTUnwrap(fixture["declaration"] as? String)
            let spec = try XCTUnwrap(fixture["font"] as? [String: Any])
            let font = try Self.font(spec, try Self.rules(try XCTUnwrap(declarations[declaration]), fonts))
            let text = try XCTUnwrap(fixture["text"] as? String)
            var outcomes: [(String, String?)] = []
            if fixture["kind"] as? String == "measure" {
                measurements.total += 1
                let width = try XCTUnwrap((fixture["width"] as? NSNumber)?.doubleValue)
                let height = try XCTUnwrap((fixture["height"] as? NSNumber)?.doubleValue)
                guard case .success(let measured) = TextMeasurer(font: font).width(of: text) else {
                    outcomes.append((id, "not measured: \(TextMeasurer(font: font).width(of: text))"))
                    record(outcomes)
                    continue
                }
                var detail = ""
                if abs(measured - width) <= Self.widthTolerance { measurements.widths += 1 } else { detail += "width \(measured) (Chromium \(width)); " }
                if font.lineMetrics.lineHeight == height { measurements.heights += 1 } else { detail += "height \(font.lineMetrics.lineHeight) (Chromium \(height)); " }
                outcomes.append((id, detail.isEmpty ? nil : detail))
            } else {
                let shaper = ParagraphShaper(font: font)
                for (number, layout) in try XCTUnwrap(fixture["layouts"] as? [[String: Any]]).enumerated() {
                    guard FixtureFilter.includes(id, layout: number) else { continue }
                    layouts.total += 1
                    let outcome = try ParagraphFixtureTests.compare(shaper, text, layout, try ParagraphFixtureTests.style(layout, fontSize: font.size))
                    if outcome.startsAgree { layouts.starts += 1 }
                    if outcome.heightAgrees { layouts.heights += 1 }
                    outcomes.append(("\(id)/\(number)", outcome.agrees ? nil : outcome.detail))
                }
            }
            record(outcomes)

            func record(_ outcomes: [(String, String?)]) {
                for (caseID, detail) in outcomes {
                    var counts = byDeclaration[declaration] ?? (0, 0)
                    counts.cases += 1
                    if FixtureFilter.isActive {
                        print("\(caseID) [\(declaration)] \(spec) \"\(text.prefix(40))\": " + (detail ?? "agrees with Chromium"))
                    }
                    guard let detail else {
                        counts.agree += 1
                        byDeclaration[declaration] = counts
                        if divergences[caseID] != nil { listedAgreeing.append(caseID) }
                        continue
                    }
                    byDeclaration[declaration] = counts
                    if divergences[caseID] == nil {
                        failures += 1
                        if failures <= 40 { XCTFail("\(caseID) [\(declaration)] \(spec) \"\(text.prefix(60))\": \(detail)") }
                    }
                }
            }
        }
        XCTAssertEqual(failures, 0, "cases that differ from Chromium without a documented divergence")
        XCTAssertEqual(listedAgreeing, [], "documented divergences that now agree with Chromium: remove them from the list")
        guard !FixtureFilter.isActive else { return }
        XCTAssertGreaterThanOrEqual(measurements.total, minimumMeasurements, "run scripts/gentext/genfonts.py")
        XCTAssertGreaterThanOrEqual(layouts.total, minimumLayouts, "run scripts/gentext/genfonts.py")
        var summary = [
            "Chromium fonts (\(name)): \(measurements.total) measurements (widths \(measurements.widths), line heights "
                + "\(measurements.heights)), \(layouts.total) paragraph layouts (line starts \(layouts.starts), heights \(layouts.heights))"
        ]
        for key in byDeclaration.keys.sorted() {
            summary.append("  \(key): \(byDeclaration[key]!.agree)/\(byDeclaration[key]!.cases)")
        }
        print(summary.joined(separator: "\n"))
    }

    /// Case id ("f12", "g3/2") → the documented reason it differs from Chromium.
    static func divergences() throws -> [String: String] {
        let data = try Data(contentsOf: url("font-divergences.json"))
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var reasons: [String: String] = [:]
        for entry in try XCTUnwrap(list["divergences"] as? [[String: Any]]) {
            let reason = try XCTUnwrap(entry["reason"] as? String)
            for id in try XCTUnwrap(entry["cases"] as? [String]) { reasons[id] = reason }
        }
        return reasons
    }
}

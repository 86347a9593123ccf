import Foundation
import XCTest
@testable import TrellisAPI
import TrellisText
import Synchronization
import TrellisTestSupport

/// POST /v1/text/measure and GET /v1/fonts: answers, every 422 with its pointer, readiness.
final class TextMeasureTests: XCTestCase {
    private let service = TestFonts.service()

    private func measure(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let response = call(service, "POST", "/v1/text/measure", json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.json
    }

    /// The widths of texts in a font object given as JSON.
    private func widths(_ font: String, _ texts: [String], file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        let body = try! JSONSerialization.data(withJSONObject: ["texts": texts])
        let json = #"{"font":\#(font),"# + String(decoding: body.dropFirst(), as: UTF8.self)
        let answer = measure(json, file: file, line: line)
        return (answer["texts"] as? [[String: Any]] ?? []).map { ($0["width"] as? NSNumber)?.doubleValue ?? .nan }
    }

    private func problems(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", "/v1/text/measure", json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    func testTheReadmeExample() {
        let response = call(
            service, "POST", "/v1/text/measure",
            json: #"{"font":{"family":"DejaVu Sans, IPAGothic","size":16},"texts":["Swift","明太子パスタ",""]}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(
            response.text,
            #"{"font":{"size":16,"ascent":15,"descent":4,"lineGap":0,"lineHeight":19},"#
                + #""texts":[{"width":39.3125,"height":19},{"width":96,"height":19},{"width":0,"height":19}]}"#)
    }

    /// Regression: a size that rounds to 0 in 16.16 (the smallest subnormal, as schemathesis sends it) made
    /// the font fail to be created, so every text was refused as "out of memory"; it measures 0 wide.
    func testASizeTooSmallToScaleMeasuresZero() {
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans, IPAGothic","size":5e-324}"#, ["Swift", "日本"]), [0, 0])
        let layout = call(service, "POST", "/v1/text/layout", json: #"{"font":{"family":"DejaVu Sans","size":5e-324},"texts":["a b"],"width":200}"#)
        XCTAssertEqual(layout.status, 200, layout.text)
    }

    func testFamilyNamesAreCaseInsensitiveQuotedOrGeneric() {
        let reference = widths(#"{"family":"DejaVu Sans","size":20}"#, ["AV To office"])
        XCTAssertEqual(widths(#"{"family":"dejavu SANS","size":20}"#, ["AV To office"]), reference)
        XCTAssertEqual(widths(#"{"family":"'DejaVu Sans'","size":20}"#, ["AV To office"]), reference)
        XCTAssertEqual(widths(#"{"family":"  sans-serif , IPAGothic","size":20}"#, ["AV To office"]), reference)
        XCTAssertNotEqual(widths(#"{"family":"serif","size":20}"#, ["AV To office"]), reference)
        XCTAssertEqual(
            widths(#"{"family":"monospace","size":20}"#, ["AV To office"]),
            widths(#"{"family":"\"DejaVu Sans Mono\"","size":20}"#, ["AV To office"]))
    }

    func testWeightAndStyleMatchTheNearestRealFace() {
        let text = ["Typography 2026"]
        let regular = widths(#"{"family":"DejaVu Sans","size":16}"#, text)
        let bold = widths(#"{"family":"DejaVu Sans","size":16,"weight":700}"#, text)
        let light = widths(#"{"family":"DejaVu Sans","size":16,"weight":200}"#, text)
        XCTAssertNotEqual(regular, bold)
        XCTAssertNotEqual(regular, light)
        // 600 and 900 look up to bold; 450 and 500 fall back to regular; 100 and 300 look down, then up, to 200.
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans","size":16,"weight":600}"#, text), bold)
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans","size":16,"weight":1000}"#, text), bold)
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans","size":16,"weight":500}"#, text), regular)
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans","size":16,"weight":300}"#, text), light)
        XCTAssertEqual(widths(#"{"family":"DejaVu Sans","size":16,"weight":1}"#, text), light)
        // No synthesis: IPAGothic has one face, whatever is asked for.
        let ipa = widths(#"{"family":"IPAGothic","size":16}"#, text)
        XCTAssertEqual(widths(#"{"family":"IPAGothic","size":16,"weight":900,"style":"italic"}"#, text), ipa)
        // Oblique is matched as italic (DejaVu's italic faces share the upright advances, so ask the matcher).
        let fonts = TestFonts.collection
        XCTAssertEqual(fonts.match(family: "DejaVu Serif", weight: 400, style: .oblique)?.isItalic, true)
        XCTAssertEqual(fonts.match(family: "DejaVu Serif", weight: 400, style: .italic)?.isItalic, true)
        XCTAssertEqual(fonts.match(family: "DejaVu Serif", weight: 400, style: .normal)?.isItalic, false)
        XCTAssertEqual(fonts.match(family: "DejaVu Sans", weight: 800, style: .oblique)?.weight, 700)
        // No italic ExtraLight: the italic faces win over the weight (style is matched first).
        let lightItalic = fonts.match(family: "DejaVu Sans", weight: 200, style: .italic)
        XCTAssertEqual(lightItalic?.isItalic, true)
        XCTAssertEqual(lightItalic?.weight, 400)
    }

    func testFallbackPerClusterAndThePrimaryFacesLineHeight() {
        let answer = measure(#"{"font":{"family":"IPAGothic, DejaVu Sans","size":16},"texts":["東京 שלום"]}"#)
        let font = answer["font"] as? [String: Any] ?? [:]
        // IPAGothic's line at 16 px; the DejaVu Sans fallback for Hebrew does not change it.
        XCTAssertEqual(font["ascent"] as? NSNumber, 14)
        XCTAssertEqual(font["descent"] as? NSNumber, 2)
        XCTAssertEqual(font["lineHeight"] as? NSNumber, 16)
        let mixed = widths(#"{"family":"IPAGothic, DejaVu Sans","size":16}"#, ["東京 שלום"])[0]
        let parts = widths(#"{"family":"IPAGothic, DejaVu Sans","size":16}"#, ["東京 ", "שלום"])
        XCTAssertEqual(mixed, parts[0] + parts[1], accuracy: 1.0 / 64)
    }

    func testZeroWidthCharactersMeasureNothingAndAreNeverUncovered() {
        let zeroWidth = "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}\u{00AD}\u{200E}\u{200F}"
        XCTAssertEqual(widths(#"{"family":"IPAGothic","size":16}"#, [zeroWidth, ""]), [0, 0])
        let plain = widths(#"{"family":"DejaVu Sans","size":16}"#, ["ab", "a\u{200B}b"])
        XCTAssertEqual(plain[0], plain[1])
    }

    func testTheCacheKeepsRepeatedLabels() {
        let fonts = FeatureContext(fonts: TestFonts.collection)
        let service = TrellisService(configuration: ServiceConfiguration(context: fonts))
        let json = #"{"font":{"family":"DejaVu Sans","size":16},"texts":["Swift","Swift","SwiftUI"]}"#
        let first = call(service, "POST", "/v1/text/measure", json: json)
        XCTAssertEqual(fonts.measureCache.count, 2)
        let second = call(service, "POST", "/v1/text/measure", json: json)
        XCTAssertEqual(fonts.measureCache.count, 2)
        XCTAssertEqual(first.text, second.text)
    }

    func testTheCacheIsBounded() {
        let cache = MeasureCache(capacity: 10)
        let font = TextFont(faces: [TestFonts.collection.faces[0]], size: 12)!
        // One measurer per request: each may store one label (a sixteenth of 10, at least one).
        for n in 0..<100 { _ = TextMeasurer(font: font, cache: cache).width(of: "label \(n)") }
        XCTAssertLessThanOrEqual(cache.count, 20)
        XCTAssertGreaterThanOrEqual(cache.count, 10)
    }

    func testBodyAndFontProblems() {
        XCTAssertEqual(problems("[]"), [["", "must be an object"]])
        XCTAssertEqual(problems("{}"), [["/font", "is required"], ["/texts", "is required"]])
        XCTAssertEqual(problems(#"{"font":3,"texts":{}}"#), [["/font", "must be an object"], ["/texts", "must be an array"]])
        XCTAssertEqual(problems(#"{"font":{},"texts":[]}"#), [["/font/family", "is required"], ["/font/size", "is required"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":7,"size":"16","weight":0,"style":"bold"},"texts":[]}"#),
            [
                ["/font/family", "must be a string"], ["/font/size", "must be a number"],
                ["/font/weight", "must be within 1...1000"],
                ["/font/style", #"must be one of "normal", "italic", "oblique""#],
            ])
        for size in ["0", "-1", "1000.5", "1e9"] {
            XCTAssertEqual(
                problems(#"{"font":{"family":"DejaVu Sans","size":\#(size)},"texts":[]}"#),
                [["/font/size", "must be a number within (0, 1000]"]], size)
        }
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16,"weight":1.5},"texts":[]}"#),
            [["/font/weight", "must be an integer within 1...1000"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16,"weight":1001},"texts":[]}"#),
            [["/font/weight", "must be within 1...1000"]])
    }

    func testFamilyListProblems() {
        let cases: [(String, String)] = [
            ("", "is not a CSS font-family list: a name is empty (two commas in a row, or a comma at an end)"),
            ("DejaVu Sans,,IPAGothic", "is not a CSS font-family list: a name is empty (two commas in a row, or a comma at an end)"),
            ("DejaVu Sans,", "is not a CSS font-family list: a name is empty (two commas in a row, or a comma at an end)"),
            ("'DejaVu Sans", "is not a CSS font-family list: a quoted name is not closed"),
            ("'DejaVu' Sans", "is not a CSS font-family list: a quote is misplaced (text after a quoted name, or a quote inside an unquoted name)"),
        ]
        for (family, detail) in cases {
            let escaped = family.replacingOccurrences(of: "\"", with: "\\\"")
            XCTAssertEqual(problems(#"{"font":{"family":"\#(escaped)","size":16},"texts":[]}"#), [["/font/family", detail]], family)
        }
        let unknown = problems(#"{"font":{"family":"DejaVu Sans, Helvetica, 'Comic Sans'","size":16},"texts":["x"]}"#)
        XCTAssertEqual(unknown.count, 1)
        XCTAssertEqual(unknown.first?.first, "/font/family")
        let detail = unknown.first?.last ?? ""
        XCTAssertTrue(detail.hasPrefix(#"names families Trellis has no font for: "Helvetica", "Comic Sans"; available: "#), detail)
        for family in TestFonts.collection.familyNames {
            XCTAssertTrue(detail.contains("\"\(family)\""), detail)
        }
    }

    func testTextProblems() {
        let long = String(repeating: "é", count: 1001)
        let ok = String(repeating: "e\u{301}", count: 500)
        let json = #"{"font":{"family":"DejaVu Sans","size":16},"texts":["fine", 5, null, "\#(long)", "\#(ok)", "tab\there", "\u0085", "\u202Bembedded", "\u2067isolate", "שלום", "x\u0000"]}"#
        XCTAssertEqual(problems(json), [
            ["/texts/1", "must be a string"],
            ["/texts/2", "must be a string"],
            ["/texts/3", "must have at most 1000 Unicode scalars"],
        ])
        let measured = #"{"font":{"family":"IPAGothic","size":16},"texts":["fine", "tab\there", "\u0085", "\u202Bembedded", "\u2067isolate", "שלום", "a\u05E9\u05B8b", "x\u0000", "\u007F"]}"#
        XCTAssertEqual(problems(measured), [
            ["/texts/1", "contains U+0009, a control character, at scalar 3; these cannot be measured"],
            ["/texts/2", "contains U+0085, a control character, at scalar 0; these cannot be measured"],
            ["/texts/3", "contains U+202B, an explicit bidi embedding, override or isolate, at scalar 0; these cannot be measured"],
            ["/texts/4", "contains U+2067, an explicit bidi embedding, override or isolate, at scalar 0; these cannot be measured"],
            ["/texts/5", "has characters no listed family can show: U+05E9, U+05DC, U+05D5, U+05DD"],
            ["/texts/6", "has characters no listed family can show: U+05E9 U+05B8"],
            ["/texts/7", "contains U+0000, a control character, at scalar 1; these cannot be measured"],
            ["/texts/8", "contains U+007F, a control character, at scalar 0; these cannot be measured"],
        ])
    }

    func testAtMostTenThousandTexts() {
        let texts = Array(repeating: "\"a\"", count: 10_001).joined(separator: ",")
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":[\#(texts)]}"#),
            [["/texts", "must have at most 10000 elements"]])
        let fits = Array(repeating: "\"a\"", count: 10_000).joined(separator: ",")
        let answer = measure(#"{"font":{"family":"DejaVu Sans","size":16},"texts":[\#(fits)]}"#)
        XCTAssertEqual((answer["texts"] as? [Any])?.count, 10_000)
    }

    func testFontsListsEveryFaceSorted() {
        let response = call(service, "GET", "/v1/fonts")
        XCTAssertEqual(response.status, 200)
        let fonts = response.json["fonts"] as? [[String: Any]] ?? []
        let triples = fonts.map { "\($0["family"] ?? "") \($0["weight"] ?? "") \($0["style"] ?? "")" }
        XCTAssertTrue(triples.contains("DejaVu Sans 200 normal"), "\(triples)")
        XCTAssertTrue(triples.contains("DejaVu Sans 700 italic"), "\(triples)")
        XCTAssertTrue(triples.contains("IPAGothic 400 normal"), "\(triples)")
        XCTAssertEqual(Set(triples).count, triples.count, "no face listed twice (condensed faces are never selected)")
        let keys = fonts.map { ($0["family"] as? String ?? "", $0["weight"] as? Int ?? 0, $0["style"] as? String == "italic" ? 1 : 0) }
        XCTAssertEqual(keys.map { "\($0)" }, keys.sorted { $0 < $1 }.map { "\($0)" })
    }

    func testMeasureOverHTTP() throws {
        let server = try LiveServer(service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        let response = try server.request("POST", "/v1/text/measure", json: #"{"font":{"family":"sans-serif","size":16},"texts":["Swift"]}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"font":{"size":16,"ascent":15,"descent":4,"lineGap":0,"lineHeight":19},"texts":[{"width":39.3125,"height":19}]}"#)
        XCTAssertEqual(try server.request("GET", "/v1/fonts").status, 200)
    }

    /// Threads share the faces, the cache and the resolved family lists: concurrent answers equal the sequential ones.
    func testConcurrentMeasurementsAgree() {
        let fonts = FeatureContext(fonts: TestFonts.collection, measureCache: MeasureCache(capacity: 64))
        let service = TrellisService(configuration: ServiceConfiguration(context: fonts))
        let bodies = (0..<40).map { n in
            #"{"font":{"family":"\#(n % 2 == 0 ? "DejaVu Sans, IPAGothic" : "IPAGothic, DejaVu Serif")","size":\#(10 + n % 7)},"texts":["tag \#(n)","東京 \#(n)","office \#(n % 5)"]}"#
        }
        let expected = bodies.map { call(TestFonts.service(), "POST", "/v1/text/measure", json: $0).text }
        let results = Mutex([String?](repeating: nil, count: bodies.count * 4))
        DispatchQueue.concurrentPerform(iterations: bodies.count * 4) { index in
            let answer = call(service, "POST", "/v1/text/measure", json: bodies[index % bodies.count]).text
            results.withLock { $0[index] = answer }
        }
        let answers = results.withLock { $0 }
        for (index, answer) in answers.enumerated() {
            XCTAssertEqual(answer, expected[index % bodies.count])
        }
    }
}

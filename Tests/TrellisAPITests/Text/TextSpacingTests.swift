import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// `letterSpacing` and `wordSpacing` in POST /v1/text/layout and POST /v1/text/measure: what they add to widths, where
/// they add nothing, and every 422 with its pointer. Chromium agreement is checked in Tests/TrellisTextTests
/// (ParagraphFixtureTests, the letter-spacing and word-spacing groups).
final class TextSpacingTests: XCTestCase {
    private let service = TestFonts.service()

    /// The width of one line of `text` (nowrap) in DejaVu Sans 16 px with the members given.
    private func lineWidth(
        _ text: String, _ members: String = "", whiteSpace: String = "nowrap", file: StaticString = #filePath, line: UInt = #line
    ) -> Double {
        let response = call(
            service, "POST", "/v1/text/layout",
            json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(text)"],"width":1000,"whiteSpace":"\#(whiteSpace)"\#(members)}"#)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        let texts = response.json["texts"] as? [[String: Any]] ?? []
        let lines = texts.first?["lines"] as? [[String: Any]] ?? []
        return lines.first?["width"] as? Double ?? -1
    }

    private func measured(_ text: String, _ members: String = "", file: StaticString = #filePath, line: UInt = #line) -> Double {
        let response = call(service, "POST", "/v1/text/measure", json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(text)"]\#(members)}"#)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        let texts = response.json["texts"] as? [[String: Any]] ?? []
        return texts.first?["width"] as? Double ?? -1
    }

    private func problems(_ json: String, at path: String = "/v1/text/layout", file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", path, json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    func testLetterSpacingFollowsEveryGraphemeClusterTheLineEndsIncluded() {
        let plain = lineWidth("Wave")
        // Four clusters, the last one's spacing counted: px as a JSON number, in a string, and in em (0.125 × 16 px).
        XCTAssertEqual(lineWidth("Wave", #","letterSpacing":2"#), plain + 8)
        XCTAssertEqual(lineWidth("Wave", #","letterSpacing":"2px""#), plain + 8)
        XCTAssertEqual(lineWidth("Wave", #","letterSpacing":"0.125em""#), plain + 8)
        XCTAssertEqual(lineWidth("Wave", #","letterSpacing":-1"#), plain - 4)
        XCTAssertEqual(lineWidth("Wave", #","letterSpacing":"normal""#), plain)
        // An accented letter with its combining mark is one cluster.
        XCTAssertEqual(lineWidth("e\u{301}", #","letterSpacing":3"#), lineWidth("e\u{301}") + 3)
        // The measure endpoint's width is the same line's.
        XCTAssertEqual(measured("Wave", #","letterSpacing":2"#), plain + 8)
        XCTAssertEqual(measured("Wave", #","letterSpacing":"0.125em""#), plain + 8)
    }

    func testLetterSpacingTurnsOptionalLigaturesOff() {
        // DejaVu Sans draws "ffi" as one narrower ligature; zero-width non-joiners keep the letters apart and take no
        // spacing. Spaced, "ffi" is three letters, each followed by the spacing.
        let apart = "f\u{200C}f\u{200C}i"
        XCTAssertLessThan(lineWidth("ffi"), lineWidth(apart))
        XCTAssertEqual(lineWidth("ffi", #","letterSpacing":1"#), lineWidth(apart) + 3)
        XCTAssertEqual(measured("ffi", #","letterSpacing":1"#), lineWidth(apart) + 3)
    }

    func testArabicLettersTakeNoLetterSpacingButItsSpacesDo() {
        let word = "سلام"
        XCTAssertEqual(lineWidth(word, #","letterSpacing":3"#), lineWidth(word))
        XCTAssertEqual(lineWidth(word + " " + word, #","letterSpacing":3"#), lineWidth(word + " " + word) + 3)
        XCTAssertEqual(measured(word + " " + word, #","letterSpacing":3"#), lineWidth(word + " " + word) + 3)
    }

    func testWordSpacingFollowsEverySpaceAndNoBreakSpace() {
        let plain = lineWidth("a b\u{A0}c d")
        XCTAssertEqual(lineWidth("a b\u{A0}c d", #","wordSpacing":5"#), plain + 15)
        XCTAssertEqual(lineWidth("a b\u{A0}c d", #","wordSpacing":"-0.25em""#), plain - 12)
        // Both: a space takes the letter spacing and the word spacing.
        XCTAssertEqual(lineWidth("a b", #","wordSpacing":5,"letterSpacing":1"#), lineWidth("a b") + 5 + 3)
        XCTAssertEqual(measured("a b\u{A0}c d", #","wordSpacing":5"#), plain + 15)
        // A kept space at the text's start takes it too (measured in Chromium).
        XCTAssertEqual(lineWidth(" a", #","wordSpacing":5"#, whiteSpace: "pre"), lineWidth(" a", whiteSpace: "pre") + 5)
    }

    func testSpacingChangesWhereLinesBreak() {
        // "one two" fits in 100 px of 16 px DejaVu Sans, not with 8 px after each letter or 50 px after its space.
        func starts(_ members: String) -> [Int] {
            let response = call(
                service, "POST", "/v1/text/layout", json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["one two three"],"width":100\#(members)}"#)
            let text = (response.json["texts"] as? [[String: Any]])?.first
            return (text?["lines"] as? [[String: Any]] ?? []).map { ($0["start"] as? NSNumber)?.intValue ?? -1 }
        }
        XCTAssertEqual(starts(""), [0, 8])
        XCTAssertEqual(starts(#","letterSpacing":8"#), [0, 4, 8])
        XCTAssertEqual(starts(#","wordSpacing":50"#), [0, 4, 8])
    }

    /// Rule: a tab stop every tab-size spaces measures each space with its letter and word spacing (CSS Text's measure of
    /// a tab, as Chromium takes it): "αβγδεζηθ\t\tΚαλημέρα κόσμε" in DejaVu Serif 17 px, `pre`, letter-spacing -0.5px is
    /// 294.125 px in Chromium 156 (a chip of Tests/TrellisTextTests/Fixtures/flow-css.jsonl); without the spacing in the
    /// stops it was 266.90625.
    func testTabStopsCountTheSpacing() {
        let response = call(
            service, "POST", "/v1/text/layout",
            json: #"{"font":{"family":"DejaVu Serif","size":17},"texts":["αβγδεζηθ\t\tΚαλημέρα κόσμε"],"width":1000,"whiteSpace":"pre","letterSpacing":-0.5}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let lines = (response.json["texts"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]] ?? []
        XCTAssertEqual(lines.first?["width"] as? Double, 294.125)
        // A tab size in px is a length: the spacing does not change its stops.
        XCTAssertEqual(lineWidth("a\\tb", #","tabSize":"40px","letterSpacing":2"#, whiteSpace: "pre"), 40 + lineWidth("b", #","letterSpacing":2"#))
    }

    func testTheMeasureCacheKeepsSpacedWidthsApart() {
        let plain = measured("Cached label")
        XCTAssertEqual(measured("Cached label", #","wordSpacing":7"#), plain + 7)
        XCTAssertEqual(measured("Cached label"), plain)
        XCTAssertEqual(measured("Cached label", #","letterSpacing":1"#), plain + 12)
    }

    func testEveryProblemHasItsPointer() {
        for path in ["/v1/text/layout", "/v1/text/measure"] {
            let width = path == "/v1/text/layout" ? #","width":10"# : ""
            for member in ["letterSpacing", "wordSpacing"] {
                for value in [#""1.5pt""#, #""2 px""#, #""em""#, #""101em""#, "1001", #""-1001px""#, "true", #""Normal""#, #""10%""#] {
                    XCTAssertEqual(
                        problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"]\#(width),"\#(member)":\#(value)}"#, at: path),
                        [["/" + member, "must be " + TextSpacingRequest.expected]], "\(path) \(member) \(value)")
                }
                // An em that comes to more than 1000 px at the font's size.
                XCTAssertEqual(
                    problems(#"{"font":{"family":"DejaVu Sans","size":100},"texts":["a"]\#(width),"\#(member)":"-20em"}"#, at: path),
                    [["/" + member, "must come to at most 1000 px either way at the font's size"]])
            }
        }
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Soft hyphens (U+00AD) and `hyphens` in POST /v1/text/layout: a break at a soft hyphen shows a hyphen whose width
/// counts, `none` takes no such break, and every 422 with its pointer. Chromium agreement is checked in
/// Tests/TrellisTextTests (ParagraphFixtureTests, the soft-hyphens group).
final class TextHyphensTests: XCTestCase {
    private let service = TestFonts.service()

    private func lines(_ text: String, width: Double, _ members: String = "", family: String = "DejaVu Sans") -> [[String: Any]] {
        layoutLines(service, text, #","width":\#(width)\#(members)"#, family: family)
    }

    private func width(_ text: String, family: String = "DejaVu Sans") -> Double {
        lines(text, width: 1000, #","whiteSpace":"nowrap""#, family: family).first?["width"] as? Double ?? -1
    }

    func testABreakAtASoftHyphenShowsAHyphenThatCounts() {
        let broken = lines("extra\u{AD}ordinary", width: 60)
        XCTAssertEqual(broken.map { $0["start"] as? Int }, [0, 6])
        // U+2010, which DejaVu Sans has, as wide as itself rounded up to 1/64 px, after "extra".
        XCTAssertEqual(broken.map { $0["hyphen"] as? String }, ["\u{2010}", nil])
        XCTAssertEqual(broken.first?["width"] as? Double, width("extra") + width("\u{2010}"))
        // Unbroken, the soft hyphen draws nothing and adds nothing.
        let whole = lines("extra\u{AD}ordinary", width: 1000)
        XCTAssertNil(whole.first?["hyphen"])
        XCTAssertEqual(whole.first?["width"] as? Double, width("extraordinary"))
        // The last line ending in a soft hyphen shows none.
        XCTAssertNil(lines("extra\u{AD}", width: 1000).first?["hyphen"])
    }

    func testTheHyphenCountsWhenTheLineIsFitted() {
        // "ab extra" fits in 68 px, "ab extra‐" does not: the line breaks after "ab " instead.
        XCTAssertLessThanOrEqual(width("ab extra"), 68)
        XCTAssertGreaterThan(width("ab extra") + width("\u{2010}"), 68)
        XCTAssertEqual(lines("ab extra\u{AD}ordinary", width: 68).map { $0["start"] as? Int }, [0, 3, 9])
        XCTAssertEqual(lines("ab extra\u{AD}ordinary", width: 73).map { $0["start"] as? Int }, [0, 9])
    }

    func testWhenNothingFitsABreakAtASoftHyphenThatFitsWithoutItsHyphenIsTaken() {
        // "extra" fits in 44 px, "extra‐" does not, and nothing else does: the line still breaks at the soft hyphen and
        // overflows by its hyphen (measured in Chromium), rather than overflowing to the word's end.
        XCTAssertLessThanOrEqual(width("extra"), 44)
        XCTAssertGreaterThan(width("extra") + width("\u{2010}"), 44)
        let broken = lines("extra\u{AD}ordinary", width: 44)
        XCTAssertEqual(broken.map { $0["start"] as? Int }, [0, 6])
        XCTAssertEqual(broken.first?["hyphen"] as? String, "\u{2010}")
    }

    func testAPrimaryFaceWithoutU2010ShowsAHyphenMinus() {
        // NanumBarunGothic has no U+2010: the hyphen is "-".
        let broken = lines("extra\u{AD}ordinary", width: 60, family: "NanumBarunGothic")
        XCTAssertEqual(broken.first?["hyphen"] as? String, "-")
    }

    func testHyphensNoneTakesNoBreakAtASoftHyphen() {
        XCTAssertEqual(lines("extra\u{AD}ordinary", width: 60, #","hyphens":"none""#).map { $0["start"] as? Int }, [0])
        XCTAssertEqual(lines("extra\u{AD}ordinary", width: 60, #","hyphens":"manual""#).map { $0["start"] as? Int }, [0, 6])
    }

    func testEveryProblemHasItsPointer() {
        for value in [#""auto""#, #""Manual""#, "true", "1"] {
            let response = call(
                service, "POST", "/v1/text/layout",
                json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"hyphens":\#(value)}"#)
            XCTAssertEqual(response.status, 422, value)
            let errors = response.json["errors"] as? [[String: String]] ?? []
            XCTAssertEqual(errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }, [["/hyphens", #"must be one of "manual", "none""#]], value)
        }
    }
}

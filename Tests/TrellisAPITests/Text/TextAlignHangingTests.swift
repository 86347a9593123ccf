import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// In `pre-wrap`, the spaces and tabs a line keeps at its end hang unconditionally where the line wraps, but before a
/// forced break or at the text's end only past the box's edge (CSS Text's conditional hanging): up to it they count in
/// the width the line is placed by. The expected offsets were measured in headless Chromium 156 (genpara.py's page,
/// DejaVu Sans 16 px, `x` from the block's start edge).
final class TextAlignHangingTests: XCTestCase {
    private let service = TestFonts.service()

    /// Each line's x of `text` laid out in `pre-wrap` in DejaVu Sans 16 px with the members given.
    private func xs(_ text: String, _ members: String, file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        layoutLines(service, text, #","whiteSpace":"pre-wrap""# + members, file: file, line: line).map { $0["x"] as? Double ?? 0 }
    }

    func testSpacesBeforeAForcedBreakCountWhenTheLineIsPlaced() {
        // "abc" and three spaces, 44.0234375 px, centred in 60 px; the spaces' width is not drawn, so not in `width`.
        XCTAssertEqual(xs("abc   \ndef", #","width":60,"textAlign":"center""#), [7.984375, 17.171875])
        // A tab counts to its stop (8 spaces from the line's start).
        XCTAssertEqual(xs("abc \t\ndef", #","width":60,"textAlign":"end""#), [19.3125, 34.359375])
        // Right to left: the spaces are at the line's left.
        XCTAssertEqual(xs("שלום  \nעולם", #","width":60,"textAlign":"left""#), [14.421875, 25.90625])
    }

    func testSpacesAtTheTextsEndCountButNotWhereALineWraps() {
        XCTAssertEqual(xs("abc  ", #","width":100,"textAlign":"end""#), [61.0625])
        // The first line wraps after "abc def ": its space hangs; the last line's two spaces count.
        XCTAssertEqual(xs("abc def ghi jkl  ", #","width":60,"textAlign":"center""#), [0.25, 0.921875])
    }

    func testTheSpacesStayAtTheLinesEndInAParagraphOfTheOtherDirection() {
        // A right-to-left paragraph in a left-to-right text: its two spaces are at its line's left, before its text.
        XCTAssertEqual(xs("abc\nשלום  \nx", #","width":100,"textAlign":"end""#), [71.234375, 10.171875, 90.53125])
        // A left-to-right paragraph in a right-to-left text (x from the right edge): its spaces are at the line's right.
        XCTAssertEqual(xs("שלום\nabc   \nx", #","width":100,"textAlign":"center""#), [32.296875, 43.25, 45.265625])
    }

    func testAPreWrapFlowLabelsRightToLeftLineHasItsSpacesAtItsLeft() {
        // Chromium 156 (genchips.py's page): the Hebrew line's two spaces at the text's end are at its left, inside the
        // label's box (its max-content width counts them); its text starts 10.125 px from the box's left edge.
        let response = call(
            service, "POST", "/v1/flow/layout",
            json: #"{"containerWidth":370.5,"direction":"rtl","font":{"family":"DejaVu Serif, DejaVu Sans","size":11.75},"labelPadding":{"top":2,"leading":11,"bottom":6.5,"trailing":11.5},"wordSpacing":"-0.05em","whiteSpace":"pre-wrap","items":[{"text":"  ipp\n אבטחה\nכנוכחי  "}]}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let items = response.json["items"] as? [[String: Any]] ?? []
        let lines = items.first?["lines"] as? [[String: Any]] ?? []
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.last?["x"] as? Double ?? 0, 10.125, accuracy: 1.0 / 64)
    }

    func testOnlyWhatFitsInTheBoxCounts() {
        // "abc def ghi" is 89.3125 px and the ideographic space 16 more: past the 100 px box it hangs, room 0.
        XCTAssertEqual(xs("abc def ghi\u{3000}\nx", #","width":100,"textAlign":"end""#), [0, 90.53125])
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Each paragraph of a text (between kept line feeds) takes its own direction from its first strong character, as
/// `dir="auto"` with `unicode-bidi: plaintext` has it, and its lines are placed by that direction; `x` stays measured
/// from the text's start edge (the direction of the text's first strong character). The expected offsets were measured
/// in headless Chromium 156 (genpara.py's page: DejaVu Sans 16 px, a 200 px box, `x` from the block's start edge).
final class TextDirectionTests: XCTestCase {
    private let service = TestFonts.service()

    /// Each line's (start, x) of `text` laid out in `pre-wrap` in DejaVu Sans 16 px with the members given.
    private func lines(_ text: String, _ members: String, file: StaticString = #filePath, line: UInt = #line) -> [[Double]] {
        layoutLines(service, text, #","whiteSpace":"pre-wrap""# + members, file: file, line: line)
            .map { [Double($0["start"] as? Int ?? -1), $0["x"] as? Double ?? 0] }
    }

    func testAHebrewParagraphAfterAnEnglishOneStartsAtTheRight() {
        // `start` is the right edge for the Hebrew paragraph: 200 less its 74.578125 px.
        XCTAssertEqual(lines("abc def\nשלום עולם\nxyz", #","width":200"#), [[0, 0], [8, 125.421875], [18, 0]])
        XCTAssertEqual(lines("abc def\nשלום עולם\nxyz", #","width":200,"textAlign":"end""#), [[0, 140.515625], [8, 0], [18, 172.65625]])
        // The last line of each paragraph is at its own start edge when justified.
        XCTAssertEqual(lines("abc\nשלום עולם", #","width":90,"textAlign":"justify""#), [[0, 0], [4, 15.421875]])
    }

    func testACarriageReturnDoesNotStartAParagraph() {
        // Kept as a control character of its line, a lone carriage return leaves the Hebrew after it in the English
        // paragraph: one line, placed left to right; after CR LF the Hebrew is a paragraph of its own.
        XCTAssertEqual(lines("abc\rשלום עולם", #","width":200,"textAlign":"end""#), [[0, 96.65625]])
        XCTAssertEqual(lines("abc\r\nשלום עולם", #","width":200,"textAlign":"end""#), [[0, 171.234375], [5, 0]])
    }

    func testAParagraphWithoutAStrongCharacterIsLeftToRight() {
        // The text is right to left (its first strong character is Hebrew): x from the right edge. "123" is a paragraph
        // of its own with no strong character: left to right, its indent at its left.
        XCTAssertEqual(lines("123\nשלום עולם\nabc", #","width":200,"textIndent":20"#), [[0, 149.453125], [4, 0], [14, 171.234375]])
        XCTAssertEqual(lines("שלום\n123 45\nabc", #","width":200"#), [[0, 0], [5, 144], [12, 171.234375]])
    }

    func testADigitBeforeTheFirstLetterDoesNotMakeARightToLeftTextLeftToRight() {
        // Digits take an even level inside a right-to-left paragraph: the direction is the first strong character's.
        XCTAssertEqual(lines("12 שלום עולם", #","width":200,"textAlign":"left""#), [[0, 99.96875]])
        XCTAssertEqual(lines("12 שלום עולם", #","width":200,"textAlign":"right""#), [[0, 0]])
    }

    func testAFlowLabelPlacesEachParagraphAtItsOwnStartEdge() {
        // Measured in Chromium 156 (genchips.py's page): the label's box is its widest line; the Hebrew paragraph after
        // the first one's line feed starts at its right.
        let response = call(
            service, "POST", "/v1/flow/layout",
            json: #"{"containerWidth":413.25,"direction":"rtl","font":{"family":"DejaVu Serif, DejaVu Sans","size":12.5,"weight":700,"style":"italic"},"labelPadding":{"top":1.75,"leading":6,"bottom":7.25,"trailing":15},"whiteSpace":"break-spaces","tabSize":0,"items":[{"text":"DOS/חלונות\nכיווץ\n"}]}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let items = response.json["items"] as? [[String: Any]] ?? []
        let found = items.first?["lines"] as? [[String: Any]] ?? []
        XCTAssertEqual(found.map { $0["x"] as? Double ?? 0 }, [0, 46.65625])
    }

    func testSpacesAfterLeftToRightTextPastACarriageReturnAreAtTheRightOfARightToLeftLine() {
        // Measured in Chromium 156 (genpara.py's page, DejaVu Sans Mono 16 px, a 100 px box): after a lone carriage
        // return the text has bidi levels of its own; a right-to-left line is placed as if its trailing spaces were at
        // its left, but after left-to-right letters they are at its right, so its text is their width further left.
        // Each line's start and x exactly, its width within 1/64 px (Chromium's is the extent of its glyphs' boxes).
        func check(_ text: String, _ expected: [(start: Int, x: Double, width: Double)], line: UInt = #line) {
            let found = layoutLines(service, text, #","whiteSpace":"pre-wrap","width":100"#, family: "DejaVu Sans Mono, DejaVu Sans")
            XCTAssertEqual(found.map { $0["start"] as? Int ?? -1 }, expected.map(\.start), line: line)
            XCTAssertEqual(found.map { $0["x"] as? Double ?? 0 }, expected.map(\.x), line: line)
            for (got, want) in zip(found, expected) {
                XCTAssertEqual(got["width"] as? Double ?? -1, want.width, accuracy: 1.0 / 64, line: line)
            }
        }
        check("שלום\rab  xyzxyzxyz", [(0, 19.265625, 54.671875), (9, 0, 86.703125)])
        check("שלום\r.  ", [(0, 19.265625, 45.046875)])
        // A European number before them has level 2 and the spaces join its run: at the line's left, as without the
        // carriage return.
        check("שלום\r12  xyzxyzxyz", [(0, 0, 54.671875), (9, 0, 86.703125)])
        // The closing bracket has level 1: the spaces come between the letters and it, and the drawn width spans them.
        check("שלום\r(ab)  xyzxyzxyz", [(0, 0, 93.234375), (11, 0, 86.703125)])
    }

    func testTheFirstParagraphsDirectionIsItsTextsBeforeACarriageReturn() {
        // Measured in Chromium 156 (genpara.py's page, DejaVu Sans Mono 16 px, a 200 px box): ICU's first paragraph ends
        // at a carriage return and Blink gives the block's first paragraph its level, so with no strong character
        // before it the paragraph is left to right (its line at the left; `x` from the text's start edge, its first
        // strong character's: the right); a later paragraph takes its direction from its text up to a line feed.
        let found = layoutLines(service, "-\rשלום\n-\rשלום", #","whiteSpace":"pre-wrap","width":200"#, family: "DejaVu Sans Mono, DejaVu Sans")
        XCTAssertEqual(found.map { $0["start"] as? Int ?? -1 }, [0, 7])
        XCTAssertEqual(found.map { $0["x"] as? Double ?? 0 }, [154.953125, 0])
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// `justify` expands before and after each of Blink's CJK ideographs and symbols, a table of its own
/// (`Character::IsCJKIdeographOrSymbol`) rather than Unicode's blocks: measured in Chromium 156 (genpara.py's page,
/// DejaVu Sans, IPAPGothic and Noto Color Emoji at 16 px, each character three times on a justified 200 px line).
final class TextJustifyTests: XCTestCase {
    private let service = TestFonts.service()

    /// The drawn width of one justified line of `text` in a 200 px box.
    private func justifiedWidth(_ text: String, line: UInt = #line) -> Double {
        let found = layoutLines(
            service, text, #","width":200,"textAlign":"justify","textAlignLast":"justify","whiteSpace":"nowrap""#,
            family: "DejaVu Sans, IPAPGothic, Noto Color Emoji", line: line)
        return found.first?["width"] as? Double ?? -1
    }

    func testBlinksSymbolTableDecidesWhichCharactersExpand() {
        // In its table: U+26A0 and U+2020 listed, U+2600 in a listed range, U+261D (a modifier sequence's base), U+2708
        // (a ZWJ sequence's pictograph); none of them has Emoji_Presentation.
        for text in ["⚠⚠⚠", "†††", "☀☀☀", "☝☝☝", "✈✈✈"] {
            XCTAssertEqual(justifiedWidth(text), 200, text)
        }
        // Not in it, though in the blocks of symbols and dingbats: the line keeps its own width.
        for text in ["✔✔✔", "•••", "✉✉✉", "☄☄☄"] {
            XCTAssertLessThan(justifiedWidth(text), 50, text)
        }
    }
}

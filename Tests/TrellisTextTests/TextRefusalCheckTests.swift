import Foundation
@testable import TrellisText
import TrellisTestSupport
import XCTest

/// A text layout request's texts are checked before any is shaped (`ParagraphShaper.refusal(of:whiteSpace:)`): the
/// check must refuse exactly the texts shaping refuses, with the same refusal, or an answer would change.
final class TextRefusalCheckTests: XCTestCase {
    /// Words that pass and words that are refused: controls, bidi controls, clusters of 33 scalars, characters no
    /// listed face has (alone, after a base, in an emoji sequence), and the scalars the check reads off a table
    /// (ASCII, Latin-1 and Latin Extended, tab, line feed, carriage return, the soft hyphen beside them).
    static let pool = WordShapingTests.pool + [
        "\u{1FAE8}", "a\u{1FAE8}", "\u{1F600}\u{200D}\u{1FAE8}", "\u{1F600}\u{FE0F}", "\u{0F00}", "x\u{0F71}", "a\u{1}b",
        "\u{7F}", "\u{85}", "\u{202E}x", "\u{2066}", "a" + String(repeating: "\u{301}", count: 32), "\t", "\n", "\r\n", "\r",
        "ÿ", "ɏ", "Ā\u{AD}ž", "\u{AD}", "ก\u{AD}ำ", "กรุงเทพ", "ສະບາຍດີ", "\u{E000}", "\u{10FFFD}", "~", "é\u{301}",
    ]

    func testTheCheckRefusesWhatShapingRefuses() throws {
        for family in ["DejaVu Sans, Garuda", "IPAGothic", "DejaVu Sans Mono"] {
            let font = try XCTUnwrap(TestFonts.font(family, size: 16), family)
            var refused = 0, passed = 0
            for whiteSpace in WhiteSpace.allCases {
                // A shaper of its own for each, so that neither answers from what the other remembered.
                let checker = ParagraphShaper(font: font)
                let shaper = ParagraphShaper(font: font)
                for text in WordShapingTests.texts(count: 300, seed: 7, from: Self.pool) + Self.pool {
                    let shaped: TextRefusal?
                    switch shaper.shape(text, whiteSpace: whiteSpace) {
                    case .success: shaped = nil
                    case .failure(let refusal): shaped = refusal
                    }
                    XCTAssertEqual(checker.refusal(of: text, whiteSpace: whiteSpace), shaped, "\(family) \(whiteSpace): \(text.debugDescription)")
                    if shaped == nil { passed += 1 } else { refused += 1 }
                }
            }
            XCTAssertGreaterThan(refused, 100, family)
            XCTAssertGreaterThan(passed, 100, family)
        }
    }
}

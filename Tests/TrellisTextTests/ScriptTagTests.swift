@testable import TrellisText
import XCTest

/// The script tags written out as constants are the ones `tag` makes from their ISO 15924 codes (a mistyped constant
/// would resolve common and inherited characters to no script).
final class ScriptTagTests: XCTestCase {
    func testTheWrittenOutTagsAreTheirCodes() {
        XCTAssertEqual(TextMeasurer.common, TextMeasurer.tag("Zyyy"))
        XCTAssertEqual(TextMeasurer.inherited, TextMeasurer.tag("Zinh"))
        XCTAssertEqual(TextMeasurer.unknown, TextMeasurer.tag("Zzzz"))
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// A grapheme cluster with U+FE0F (emoji presentation) is drawn in the color face when measured, as when laid out in a
/// paragraph, though the first face has its character (DejaVu Sans Mono has U+2714 and U+2709 as text glyphs).
final class TextEmojiMeasureTests: XCTestCase {
    private let service = TestFonts.service()

    func testAnEmojiPresentationSequenceIsMeasuredInTheColorFace() {
        // Chromium 156 draws "✔️✉️" 58.421875 px wide in a chip (DejaVu Sans Mono, Noto Color Emoji, 22 px,
        // letter-spacing 0.08em): 67.671875 with the chip's 9.25 px of padding.
        let response = call(
            service, "POST", "/v1/text/measure",
            json: #"{"font":{"family":"DejaVu Sans Mono, Noto Color Emoji","size":22},"texts":["✔️✉️","✔✉"],"letterSpacing":"0.08em"}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let texts = response.json["texts"] as? [[String: Any]] ?? []
        XCTAssertEqual(texts.map { $0["width"] as? Double ?? -1 }, [58.421875, 30.015625])

        let flow = call(
            service, "POST", "/v1/flow/layout",
            json: #"{"containerWidth":130,"horizontalSpacing":2.5,"verticalSpacing":6,"direction":"rtl","font":{"family":"DejaVu Sans Mono, Noto Color Emoji","size":22},"labelPadding":{"top":6.25,"leading":5.5,"bottom":3.5,"trailing":3.75},"letterSpacing":"0.08em","items":[{"text":"✔️✉️"}]}"#)
        XCTAssertEqual(flow.status, 200, flow.text)
        let items = flow.json["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.first?["width"] as? Double, 67.671875)
    }
}

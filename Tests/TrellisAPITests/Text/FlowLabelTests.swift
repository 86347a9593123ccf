import Foundation
import XCTest
@testable import TrellisAPI
import TrellisText
import TrellisTestSupport

/// POST /v1/flow/layout with items and the chip given as text.
final class FlowLabelTests: XCTestCase {
    private let service = TestFonts.service()
    private let font = #""font":{"family":"DejaVu Sans","size":17},"labelPadding":{"top":8,"leading":16,"bottom":8,"trailing":16}"#
    private let tags = ["Swift", "SwiftUI", "UIKit", "Xcode", "Apple", "iOS", "iPad"]

    private func layout(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.json
    }

    private func problems(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    private func measured(_ texts: [String], size: Double = 17) -> [Double] {
        let measurer = TextMeasurer(font: TextFont(faces: [TestFonts.collection.match(family: "DejaVu Sans", weight: 400, style: .normal)!], size: size)!)
        return texts.map { (try? measurer.width(of: $0).get()) ?? .nan }
    }

    /// Labels lay out exactly as the same request with the measured sizes does.
    func testLabelsLayOutAsTheirMeasuredSizes() {
        let textItems = tags.map { #"{"id":"\#($0.lowercased())","text":"\#($0)"}"# }.joined(separator: ",")
        let labelled = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":300,"horizontalSpacing":4,"verticalSpacing":4,\#(font),"items":[\#(textItems)]}"#)
        let sizedItems = zip(tags, measured(tags)).map { #"{"id":"\#($0.lowercased())","width":\#($1 + 32),"height":36}"# }.joined(separator: ",")
        let sized = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":300,"horizontalSpacing":4,"verticalSpacing":4,"items":[\#(sizedItems)]}"#)
        XCTAssertEqual(labelled.status, 200, labelled.text)
        XCTAssertEqual(labelled.text, sized.text)
        let first = (labelled.json["items"] as? [[String: Any]])?.first
        XCTAssertEqual((first?["width"] as? NSNumber)?.doubleValue ?? 0, measured(["Swift"])[0] + 32)
        XCTAssertEqual(first?["height"] as? NSNumber, 36)
    }

    /// Text and sized items mix; the flow's direction does not change what is measured.
    func testMixedItemsAndDirection() {
        let json = #"{"containerWidth":200,"direction":"rtl",\#(font),"items":[{"text":"שלום Swift"},{"width":10,"height":5}]}"#
        let items = layout(json)["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual((items[0]["width"] as? NSNumber)?.doubleValue ?? 0, measured(["שלום Swift"])[0] + 32)
        XCTAssertEqual(items[1]["width"] as? NSNumber, 10)
    }

    /// The chip's "+{n}" takes the hidden count; a wider label that hides one more is relabelled.
    func testTheChipLabelShowsTheHiddenCount() {
        let textItems = tags.map { #"{"text":"\#($0)"}"# }.joined(separator: ",")
        let answer = layout(#"{"containerWidth":300,"horizontalSpacing":4,"verticalSpacing":4,"maxRows":1,"overflowIndicator":{"text":"+{n}"},\#(font),"items":[\#(textItems)]}"#)
        let chip = answer["overflowIndicator"] as? [String: Any] ?? [:]
        let count = (chip["count"] as? NSNumber)?.intValue ?? -1
        XCTAssertEqual(answer["hiddenCount"] as? NSNumber, NSNumber(value: count))
        XCTAssertEqual((chip["width"] as? NSNumber)?.doubleValue ?? 0, measured(["+\(count)"])[0] + 32)
        XCTAssertEqual(chip["height"] as? NSNumber, 36)
    }

    func testLabelProblems() {
        XCTAssertEqual(problems(#"{"containerWidth":100,"items":[{"text":"a"}]}"#), [["/font", "is required when an item or the overflowIndicator has text"]])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,\#(font),"items":[{"text":"a","width":3},{"text":4},{"text":"a","height":null},{"text":"\u0009"},{"text":null}]}"#),
            [
                ["/items/0", "has both text and width or height: give one or the other"],
                ["/items/1/text", "must be a string"],
                ["/items/2", "has both text and width or height: give one or the other"],
                ["/items/4/width", "is required"],
                ["/items/4/height", "is required"],
            ])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"font":{"family":"IPAGothic","size":16},"labelPadding":{"top":-1,"leading":"2"},"items":[{"text":"a"}]}"#),
            [["/labelPadding/top", "must be a number within [0, 1000000000]"], ["/labelPadding/leading", "must be a number"]])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"font":{"family":"IPAGothic","size":16},"items":[{"text":"ok"},{"text":"שלום"},{"text":"\u202Ax"}]}"#),
            [
                ["/items/1/text", "has characters no listed family can show: U+05E9, U+05DC, U+05D5, U+05DD"],
                ["/items/2/text", "contains U+202A, an explicit bidi embedding, override or isolate, at scalar 0; these cannot be measured"],
            ])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"maxRows":1,"font":{"family":"IPAGothic","size":16},"overflowIndicator":{"text":"+{n} עוד"},"items":[{"width":1,"height":1}]}"#),
            [["/overflowIndicator/text", "has characters no listed family can show: U+05E2, U+05D5, U+05D3"]])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"maxRows":1,"font":{"family":"IPAGothic","size":16},"overflowIndicator":{"text":"+{n}","width":3},"items":[]}"#),
            [["/overflowIndicator", "has both text and width or height: give one or the other"]])
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"font":{"family":"Nope","size":16},"items":[{"text":"a"}]}"#).map(\.first),
            ["/font/family"])
    }

    /// Without text, `font` and `labelPadding` are checked but change nothing.
    func testRequestsWithoutTextCheckButDoNotUseTheFont() {
        let plain = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":100,"items":[{"width":10,"height":10}]}"#)
        let withFont = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":100,\#(font),"items":[{"width":10,"height":10}]}"#)
        XCTAssertEqual(plain.text, withFont.text)
        XCTAssertEqual(
            problems(#"{"containerWidth":100,"font":7,"labelPadding":{"top":-1},"items":[{"width":10,"height":10}]}"#),
            [["/font", "must be an object"], ["/labelPadding/top", "must be a number within [0, 1000000000]"]])
    }

    /// The number members of an item's or the chip's answer.
    private func numbers(_ object: Any?, _ key: String) -> [Double] {
        ((object as? [String: Any])?["lines"] as? [[String: Any]] ?? []).map { (($0[key] as? NSNumber)?.doubleValue) ?? 0 }
    }

    /// Rule for `whiteSpace`: labels are paragraphs in that mode: a line feed it keeps ends a line (the chip two lines
    /// tall, as wide as its widest line), one it collapses is a space; without it a line feed is a 422.
    func testWhiteSpaceKeepsOrCollapsesTheLineFeedsOfLabels() {
        let text = #""items":[{"text":"Sam Lee\nonline"}]"#
        let kept = layout(#"{"containerWidth":300,\#(font),"whiteSpace":"pre-line",\#(text)}"#)
        let item = (kept["items"] as? [[String: Any]])?.first
        XCTAssertEqual(numbers(item, "start"), [0, 8])
        XCTAssertEqual(item?["height"] as? NSNumber, 56)
        XCTAssertEqual((item?["width"] as? NSNumber)?.doubleValue, measured(["Sam Lee", "online"]).max().map { $0 + 32 })
        for mode in ["normal", "nowrap"] {
            let collapsed = (layout(#"{"containerWidth":300,\#(font),"whiteSpace":"\#(mode)",\#(text)}"#)["items"] as? [[String: Any]])?.first
            XCTAssertEqual(numbers(collapsed, "start"), [0], mode)
            XCTAssertEqual(collapsed?["height"] as? NSNumber, 36, mode)
            XCTAssertEqual((collapsed?["width"] as? NSNumber)?.doubleValue, measured(["Sam Lee online"])[0] + 32, mode)
        }
        XCTAssertEqual(
            problems(#"{"containerWidth":300,\#(font),\#(text)}"#),
            [["/items/0/text", "contains U+000A, a control character, at scalar 7; these cannot be measured"]])
        // Other control characters stay a 422 in every mode.
        XCTAssertEqual(
            problems(#"{"containerWidth":300,\#(font),"whiteSpace":"pre","items":[{"text":"a\tb"},{"text":"a\u0007b"}]}"#),
            [["/items/1/text", "contains U+0007, a control character, at scalar 1; these cannot be measured"]])
        // The chip's label too: its lines for the count it shows.
        let chip = layout(#"{"containerWidth":100,\#(font),"whiteSpace":"pre","maxRows":1,"overflowIndicator":{"text":"+{n}\nmore"},"items":[{"width":90,"height":10},{"width":90,"height":10}]}"#)["overflowIndicator"]
        XCTAssertEqual(numbers(chip, "start"), [0, 3])
        XCTAssertEqual((chip as? [String: Any])?["height"] as? NSNumber, 56)
    }

    /// Rule for `textAlign`: a label's lines are placed in its content box (as wide as its widest line, or its maxWidth).
    func testTextAlignPlacesTheLinesOfALabel() {
        let widths = measured(["Sam Lee", "online"])
        let centered = (layout(#"{"containerWidth":300,\#(font),"whiteSpace":"pre-line","textAlign":"center","items":[{"text":"Sam Lee\nonline"}]}"#)["items"] as? [[String: Any]])?.first
        XCTAssertEqual(numbers(centered, "x"), [0, ((widths[0] - widths[1]) / 2 * 64).rounded(.down) / 64])
        let right = (layout(#"{"containerWidth":300,\#(font),"whiteSpace":"normal","textAlign":"right","items":[{"text":"Sam Lee online","maxWidth":120,"maxLines":2}]}"#)["items"] as? [[String: Any]])?.first
        XCTAssertEqual(numbers(right, "start"), [0, 8])
        XCTAssertEqual(numbers(right, "x"), widths.map { 120 - 32 - $0 })
    }

    /// Rule for `letterSpacing` and `wordSpacing`: they widen every label (its measured width), in px or em.
    func testSpacingWidensTheLabels() {
        let plain = measured(["Sam Lee"])[0]
        let spaced = (layout(#"{"containerWidth":300,\#(font),"letterSpacing":2,"wordSpacing":"0.5em","items":[{"text":"Sam Lee"}]}"#)["items"] as? [[String: Any]])?.first
        XCTAssertEqual((spaced?["width"] as? NSNumber)?.doubleValue, plain + 7 * 2 + 8.5 + 32)
        XCTAssertEqual(
            problems(#"{"containerWidth":300,\#(font),"whiteSpace":"wrap","textAlign":"middle","tabSize":-1,"letterSpacing":"2000px","wordSpacing":"101em","items":[{"text":"a"}]}"#).map(\.first),
            ["/whiteSpace", "/textAlign", "/tabSize", "/letterSpacing", "/wordSpacing"])
        // Checked without text too.
        XCTAssertEqual(
            problems(#"{"containerWidth":300,"textAlign":"middle","items":[{"width":1,"height":1}]}"#),
            [["/textAlign", #"must be one of "start", "end", "left", "right", "center", "justify""#]])
    }
}


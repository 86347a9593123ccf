import Foundation
import TrellisCore
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// POST /v1/list/layout: on random lists, every row's height, offset, lines and truncation are the sums of
/// POST /v1/text/layout's answers for its paragraphs plus its chrome, and the window and anchor follow a
/// reference model; every problem is reported with its pointer. Chromium agreement is checked in
/// Tests/TrellisTextTests (ListFixtureTests).
final class ListLayoutTests: XCTestCase {
    private let service = TestFonts.service()

    private func post(_ path: String, _ body: Any, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let response = call(service, "POST", path, json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.json
    }

    private func problems(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", "/v1/list/layout", json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    private static let words = ["hello", "world", "lunch", "tomorrow", "12:30", "the", "window", "明太子パスタ", "ショートケーキ",
                                "🎉", "👍🏽", "a", "Supercalifragilisticexpialidocious", "well-known", "(fine)", "ok?", "  ", "AV To", "office",
                                "typed\nline", "\n", "tab\tstop", "\r\n"]
    private static var properties: [[String: Any]] { [
        [:], ["maxLines": 1, "textOverflow": "ellipsis"], ["maxLines": 2], ["whiteSpace": "nowrap", "textOverflow": "ellipsis"],
        ["whiteSpace": "pre-wrap"], ["overflowWrap": "anywhere"], ["wordBreak": "break-all"], ["lineHeight": 22.5], ["lineHeight": 17.3],
        ["whiteSpace": "pre", "textOverflow": "ellipsis"], ["whiteSpace": "pre-wrap", "overflowWrap": "break-word"],
        ["textWrap": "balance"], ["textWrap": "pretty"], ["textWrap": "balance", "maxLines": 2, "textOverflow": "ellipsis"],
    ] }

    private func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    func testRowsAreTheirParagraphsAsTextLayoutAnswersThemPlusTheirChrome() throws {
        var rng = SplitMix64(seed: 0x1157_0001)
        var rowsChecked = 0
        var truncatedRows = 0
        for _ in 0..<80 {
            let shared = Self.properties[Int.random(in: 0..<Self.properties.count, using: &rng)]
            let font: [String: Any] = ["family": "DejaVu Sans, IPAGothic, Noto Color Emoji", "size": Double(Int.random(in: 48...72, using: &rng)) / 4]
            func length(_ high: Int) -> Double {
                Bool.random(using: &rng) ? Double(Int.random(in: 0...(high * 4), using: &rng)) / 4 : Double.random(in: 0...Double(high), using: &rng)
            }
            var rows: [[String: Any]] = []
            for index in 0..<Int.random(in: 0...25, using: &rng) {
                var row: [String: Any] = ["key": index % 7 == 3 ? index as Any : "r\(index)"]
                var texts: [Any] = []
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    let text = (0..<Int.random(in: 0...14, using: &rng)).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
                    let own = Int.random(in: 0..<4, using: &rng) == 0 ? Self.properties.randomElement(using: &rng)! : [:]
                    texts.append(own.isEmpty ? text : own.merging(["text": text]) { a, _ in a })
                }
                if !texts.isEmpty || Bool.random(using: &rng) { row["texts"] = texts }
                if Bool.random(using: &rng) {
                    row["padding"] = ["top": length(16), "bottom": length(16), "leading": length(30), "trailing": length(30)]
                }
                if Int.random(in: 0..<3, using: &rng) == 0 { row["extraHeight"] = length(40) }
                if Int.random(in: 0..<3, using: &rng) == 0 { row["minHeight"] = length(80) }
                rows.append(row)
            }
            let widths = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Double(Int.random(in: 400...2400, using: &rng)) / 4 }
            var body: [String: Any] = ["font": font, "rows": rows, "widths": widths, "paragraphGap": length(8), "gap": length(12)]
            body.merge(shared) { a, _ in a }
            let viewport = length(400)
            // Offsets on the 1/4 px grid, so that Foundation's JSON text of them reads back as the same doubles.
            let scroll: [String: Any] = ["offset": Double(Int.random(in: -200...12000, using: &rng)) / 4, "viewportHeight": viewport, "overscan": Int.random(in: 0...3, using: &rng)]
            body["scroll"] = scroll
            let anchorKey: Any = Bool.random(using: &rng) ? "r\(Int.random(in: 0...30, using: &rng))" : 3
            let anchorOffset = Double(Int.random(in: -80...240, using: &rng)) / 4
            body["anchor"] = ["key": anchorKey, "offset": anchorOffset]
            let answer = try post("/v1/list/layout", body)
            let layouts = answer["layouts"] as? [[String: Any]] ?? []
            XCTAssertEqual(layouts.count, widths.count)
            for (layout, width) in zip(layouts, widths) {
                XCTAssertEqual(number(layout["width"]), width)
                let expected = try model(rows, width: width, body: body, shared: shared, font: font)
                let heights = (layout["heights"] as? [NSNumber] ?? []).map(\.doubleValue)
                XCTAssertEqual(heights, expected.heights)
                XCTAssertEqual((layout["offsets"] as? [NSNumber] ?? []).map(\.doubleValue), expected.offsets)
                XCTAssertEqual(number(layout["total"]), expected.total)
                XCTAssertEqual((layout["lineCounts"] as? [NSNumber] ?? []).map(\.intValue), expected.lineCounts)
                XCTAssertEqual(layout["truncated"] as? [Bool] ?? [], expected.truncated)
                rowsChecked += heights.count
                truncatedRows += expected.truncated.filter { $0 }.count
                // The anchor: the first row with its key (strings and integers never equal), its top plus the offset.
                let anchorRow = rows.firstIndex { row in
                    if let key = anchorKey as? String { return row["key"] as? String == key }
                    return row["key"] as? Int == anchorKey as? Int
                }
                if let anchorRow {
                    let position = layout["anchor"] as? [String: Any]
                    XCTAssertEqual(position?["index"] as? Int, anchorRow)
                    XCTAssertEqual(number(position?["scrollOffset"]), expected.offsets[anchorRow] + anchorOffset)
                } else {
                    XCTAssertTrue(layout["anchor"] is NSNull, "\(layout["anchor"] ?? "absent")")
                }
                let top = anchorRow.map { expected.offsets[$0] + anchorOffset } ?? (scroll["offset"] as? Double ?? 0)
                let window = layout["window"] as? [String: Int]
                XCTAssertEqual(window, windowModel(heights: expected.heights, offsets: expected.offsets, total: expected.total,
                                                   top: top, viewport: viewport, overscan: scroll["overscan"] as? Int ?? 0))
            }
        }
        XCTAssertGreaterThan(rowsChecked, 1000)
        XCTAssertGreaterThan(truncatedRows, 50)
    }

    /// At the widths where a paragraph stops fitting on one line (its max-content width, and 1/128 to 3/64 px
    /// either side: Chromium allows a line 1/64 px more than its box), each paragraph's lines are
    /// `/v1/text/layout`'s, in wrapping and one-line modes, with an ellipsis or not.
    func testAtTheWidthWhereAParagraphStopsFittingItsLinesAreTextLayouts() throws {
        let font: [String: Any] = ["family": "DejaVu Sans, IPAGothic, Noto Color Emoji", "size": 15]
        let texts = ["Are we still on for lunch tomorrow? 🍜", "AV To office, well-known", "明太子パスタ", "ok  ", "Typography: fi fl ffi"]
        for properties in [[:], ["whiteSpace": "pre-wrap"], ["whiteSpace": "nowrap", "textOverflow": "ellipsis"],
                           ["whiteSpace": "pre", "textOverflow": "ellipsis"], ["overflowWrap": "anywhere", "maxLines": 1, "textOverflow": "ellipsis"]] as [[String: Any]] {
            for text in texts {
                var measure: [String: Any] = ["font": font, "texts": [text], "width": 100, "contentWidths": true]
                measure.merge(properties) { a, _ in a }
                let content = number((try post("/v1/text/layout", measure)["texts"] as? [[String: Any]])?.first?["maxContentWidth"])
                let widths = [-3.0, -2, -1, -0.5, 0, 0.5, 1, 2].map { content + $0 / 64 }.filter { $0 > 0 }
                var request: [String: Any] = ["font": font, "texts": [text], "widths": widths]
                request.merge(properties) { a, _ in a }
                let paragraphs = (try post("/v1/text/layout", request)["texts"] as? [[String: Any]])?.first?["layouts"] as? [[String: Any]] ?? []
                var list: [String: Any] = ["font": font, "widths": widths, "rows": [["texts": [text]]]]
                list.merge(properties) { a, _ in a }
                let layouts = try post("/v1/list/layout", list)["layouts"] as? [[String: Any]] ?? []
                XCTAssertEqual(layouts.count, widths.count)
                for (layout, paragraph) in zip(layouts, paragraphs) {
                    XCTAssertEqual((layout["lineCounts"] as? [Int])?.first, paragraph["lineCount"] as? Int, "\(text) \(properties) at \(layout["width"] ?? 0)")
                    XCTAssertEqual((layout["truncated"] as? [Bool])?.first, paragraph["truncated"] as? Bool, "\(text) \(properties) at \(layout["width"] ?? 0)")
                    XCTAssertEqual((layout["heights"] as? [NSNumber])?.first?.doubleValue, number(paragraph["height"]), "\(text) \(properties)")
                }
            }
        }
    }

    struct Expected {
        var heights: [Double] = []
        var offsets: [Double] = []
        var total = 0.0
        var lineCounts: [Int] = []
        var truncated: [Bool] = []
    }

    /// Each paragraph through POST /v1/text/layout at its row's text width (grouped by properties and width), then
    /// the row as the sum: top padding, paragraphs with the gap between each two, bottom padding, extra height,
    /// at least the minimum height; rows stacked with the gap between them.
    private func model(_ rows: [[String: Any]], width: Double, body: [String: Any], shared: [String: Any], font: [String: Any]) throws -> Expected {
        let unit = ListLength.layoutUnit
        struct Slot { var row: Int; var text: String; var properties: [String: Any]; var textWidth: Double }
        var slots: [Slot] = []
        for (r, row) in rows.enumerated() {
            let padding = row["padding"] as? [String: Double] ?? [:]
            let textWidth = max(0, width - unit(padding["leading"] ?? 0) - unit(padding["trailing"] ?? 0))
            for text in row["texts"] as? [Any] ?? [] {
                if let plain = text as? String {
                    slots.append(Slot(row: r, text: plain, properties: shared, textWidth: textWidth))
                } else if let styled = text as? [String: Any] {
                    var own = shared
                    own.merge(styled.filter { $0.key != "text" }) { _, b in b }
                    slots.append(Slot(row: r, text: styled["text"] as? String ?? "", properties: own, textWidth: textWidth))
                }
            }
        }
        // One text/layout request per distinct properties and text width.
        var paragraphs = [(height: Double, lines: Int, truncated: Bool)](repeating: (0, 0, false), count: slots.count)
        var groups: [String: [Int]] = [:]
        for (k, slot) in slots.enumerated() {
            let key = String(decoding: try JSONSerialization.data(withJSONObject: slot.properties, options: .sortedKeys), as: UTF8.self) + " \(slot.textWidth)"
            groups[key, default: []].append(k)
        }
        for members in groups.values {
            var request = slots[members[0]].properties
            // The list holds a line height as Chromium does, rounded to 1/64 px.
            if let lineHeight = request["lineHeight"] as? Double { request["lineHeight"] = ListLength.lineHeight(lineHeight) }
            request["font"] = font
            request["width"] = slots[members[0]].textWidth
            request["texts"] = members.map { slots[$0].text }
            let answer = try post("/v1/text/layout", request)
            for (k, text) in zip(members, answer["texts"] as? [[String: Any]] ?? []) {
                paragraphs[k] = (number(text["height"]), (text["lineCount"] as? NSNumber)?.intValue ?? -1, text["truncated"] as? Bool ?? false)
            }
        }
        let paragraphGap = unit(body["paragraphGap"] as? Double ?? 0)
        var expected = Expected()
        var k = 0
        for (r, row) in rows.enumerated() {
            var text = 0.0
            var lines = 0
            var truncated = false
            var first = true
            while k < slots.count && slots[k].row == r {
                if !first { text += paragraphGap }
                first = false
                text += paragraphs[k].height
                lines += paragraphs[k].lines
                truncated = truncated || paragraphs[k].truncated
                k += 1
            }
            let padding = row["padding"] as? [String: Double] ?? [:]
            let height = unit(padding["top"] ?? 0) + text + unit(padding["bottom"] ?? 0) + unit(row["extraHeight"] as? Double ?? 0)
            expected.heights.append(max(unit(row["minHeight"] as? Double ?? 0), height))
            expected.lineCounts.append(lines)
            expected.truncated.append(truncated)
        }
        let gap = unit(body["gap"] as? Double ?? 0)
        for (r, height) in expected.heights.enumerated() {
            if r > 0 { expected.total += gap }
            expected.offsets.append(expected.total)
            expected.total += height
        }
        return expected
    }

    /// The rows some of which lie in the viewport at the clamped scroll offset, widened by the overscan.
    private func windowModel(heights: [Double], offsets: [Double], total: Double, top: Double, viewport: Double, overscan: Int) -> [String: Int] {
        let clamped = max(0, min(top, total - viewport))
        let shown = heights.indices.filter { offsets[$0] < clamped + viewport && offsets[$0] + heights[$0] > clamped }
        var start = shown.first ?? heights.indices.filter { offsets[$0] + heights[$0] <= clamped }.count
        var end = shown.last.map { $0 + 1 } ?? start
        start = max(0, start - overscan)
        end = min(heights.count, end + overscan)
        return ["start": start, "end": end]
    }

    func testTheOpenAPIExample() {
        let response = call(service, "POST", "/v1/list/layout", json: #"""
            {"font":{"family":"DejaVu Sans, Noto Color Emoji","size":15},"widths":[280,560],"gap":8,"paragraphGap":4,"rows":[{"key":"m1","texts":["Are we still on for lunch tomorrow? 🍜"],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12}},{"key":"m2","texts":["Yes! 12:30 at the usual place, I booked the table by the window."],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12},"extraHeight":22},{"key":"day","texts":["Tuesday"],"minHeight":32},{"key":"m3","texts":[{"text":"Bringing the slides for the review too, they are long but the summary is on the first page.","maxLines":2,"textOverflow":"ellipsis"},"Sent from my phone"],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12}}],"scroll":{"offset":40,"viewportHeight":80},"anchor":{"key":"m2","offset":6}}
            """#)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(
            response.text,
            #"{"layouts":[{"width":280,"heights":[52,74,32,74],"offsets":[0,60,142,182],"total":256,"lineCounts":[2,2,1,4],"#
                + #""truncated":[false,false,false,true],"window":{"start":1,"end":3},"anchor":{"index":1,"scrollOffset":66}},"#
                + #"{"width":560,"heights":[34,56,32,74],"offsets":[0,42,106,146],"total":220,"lineCounts":[1,1,1,3],"#
                + #""truncated":[false,false,false,false],"window":{"start":1,"end":3},"anchor":{"index":1,"scrollOffset":48}}]}"#)
    }

    func testAnEmptyListAndRowsWithoutText() throws {
        let empty = try post("/v1/list/layout", ["font": ["family": "DejaVu Sans", "size": 16], "width": 300, "rows": [] as [Any],
                                                 "scroll": ["viewportHeight": 100], "anchor": ["key": "x"]])
        let layout = (empty["layouts"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(layout["heights"] as? [Double], [])
        XCTAssertEqual(number(layout["total"]), 0)
        XCTAssertEqual(layout["window"] as? [String: Int], ["start": 0, "end": 0])
        XCTAssertTrue(layout["anchor"] is NSNull)
        // A row without text is its chrome; an empty text has no line; no gap after the last row.
        let chrome = try post("/v1/list/layout", ["font": ["family": "DejaVu Sans", "size": 16], "width": 300, "gap": 10, "paragraphGap": 5,
                                                  "rows": [["extraHeight": 40, "padding": ["top": 4]], ["texts": ["", ""]], ["minHeight": 12.3]]])
        let rows = (chrome["layouts"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(rows["heights"] as? [Double], [44, 5, 12.296875])
        XCTAssertEqual(rows["offsets"] as? [Double], [0, 54, 69])
        XCTAssertEqual(number(rows["total"]), 81.296875)
        XCTAssertEqual(rows["lineCounts"] as? [Int], [0, 0, 0])
        XCTAssertNil(rows["window"])
        XCTAssertNil(rows["anchor"])
    }

    /// Rows far narrower than their text at many widths make a line of every grapheme: past two lines per body byte
    /// the list is refused (the lines are the work), at the widths.
    func testLinesPastTheirBoundAreRefusedAtTheWidths() {
        let font = #""font":{"family":"DejaVu Sans","size":16}"#
        let rows = (0..<40).map { #"{"texts":["\#(String(repeating: "word\($0) ", count: 12))"]}"# }.joined(separator: ",")
        let narrow = (0..<16).map { "\(1 + Double($0) / 16)" }.joined(separator: ",")
        XCTAssertEqual(
            problems(#"{\#(font),"widths":[\#(narrow)],"overflowWrap":"anywhere","rows":[\#(rows)]}"#).map(\.[0]), ["/widths"])
        // A line a letter at one width is within the bound; at three it is not.
        let letters = #"{"texts":["\#(String(repeating: "a", count: 999))"]}"#
        XCTAssertEqual(call(service, "POST", "/v1/list/layout", json: #"{\#(font),"width":1,"overflowWrap":"anywhere","rows":[\#(letters)]}"#).status, 200)
        XCTAssertEqual(problems(#"{\#(font),"widths":[1,1.5,2],"overflowWrap":"anywhere","rows":[\#(letters)]}"#).map(\.[0]), ["/widths"])
        // The same rows at ordinary widths are answered.
        let wide = call(service, "POST", "/v1/list/layout", json: #"{\#(font),"widths":[200,300,400],"rows":[\#(rows)]}"#)
        XCTAssertEqual(wide.status, 200, wide.text)
    }

    /// Each row with text is kept for every width until the answer is written: rows of a letter at sixteen widths
    /// are refused at the widths (one row-width per 2 body bytes), the same rows at two widths are answered.
    func testRowsWithTextTimesWidthsAreBoundedByTheBody() {
        let font = #""font":{"family":"DejaVu Sans","size":16}"#
        let rows = (0..<500).map { #"{"texts":["\#(Character(Unicode.Scalar(97 + $0 % 26)!))"]}"# }.joined(separator: ",")
        let sixteen = (0..<16).map { "\(200 + 40 * $0)" }.joined(separator: ",")
        let refused = problems(#"{\#(font),"widths":[\#(sixteen)],"rows":[\#(rows)]}"#)
        XCTAssertEqual(refused.map(\.[0]), ["/widths"])
        XCTAssertTrue(refused.first?[1].contains("rows with text times widths") == true, "\(refused)")
        let two = call(service, "POST", "/v1/list/layout", json: #"{\#(font),"widths":[200,400],"rows":[\#(rows)]}"#)
        XCTAssertEqual(two.status, 200, two.text)
    }

    func testTextWrapIsReadWhereTheListAndEachParagraphGiveIt() {
        let font = #""font":{"family":"DejaVu Sans","size":16},"width":200"#
        XCTAssertEqual(
            problems(#"{\#(font),"textWrap":"nowrap","rows":[{"texts":[{"text":"a","textWrap":"Balance"},{"text":"b","textWrap":2}]}]}"#).map(\.[0]),
            ["/textWrap", "/rows/0/texts/0/textWrap", "/rows/0/texts/1/textWrap"])
    }

    func testEveryProblemHasItsPointer() {
        let font = #""font":{"family":"DejaVu Sans","size":16}"#
        XCTAssertEqual(problems(#"{\#(font),"rows":[]}"#), [["", "is required (or give widths)"]].map { ["/width", $0[1]] })
        XCTAssertEqual(problems(#"{\#(font),"rows":[],"width":1,"widths":[2]}"#).map(\.[0]), [""])
        XCTAssertEqual(
            problems(#"""
                {\#(font),"width":300,"gap":-1,"paragraphGap":"x","maxLines":0,"whiteSpace":"wrap","scroll":{"offset":"a","overscan":-1},
                 "anchor":{"offset":1},"rows":[{"key":1.5,"texts":["ok",7,{"maxLines":2},{"text":"x","textOverflow":"fade"}],
                 "padding":{"top":-2,"leading":"a"},"extraHeight":2e6,"minHeight":null},5,{"texts":"no"}]}
                """#).map(\.[0]).sorted(),
            ["/anchor/key", "/gap", "/maxLines", "/paragraphGap", "/rows/0/extraHeight", "/rows/0/key", "/rows/0/padding/leading",
             "/rows/0/padding/top", "/rows/0/texts/1", "/rows/0/texts/2/text", "/rows/0/texts/3/textOverflow", "/rows/1", "/rows/2/texts",
             "/scroll/offset", "/scroll/overscan", "/scroll/viewportHeight", "/whiteSpace"])
        // Text the paragraph layout refuses: at the paragraph, whether a string or an object's text.
        XCTAssertEqual(
            problems(#"{\#(font),"width":300,"rows":[{"texts":["fine"]},{"texts":["a\u0001b",{"text":"x\u202Ey"}]}]}"#).map(\.[0]),
            ["/rows/1/texts/0", "/rows/1/texts/1/text"])
        XCTAssertEqual(
            problems(#"{\#(font),"width":300,"rows":[{"texts":["ok","안녕"]}]}"#),
            [["/rows/0/texts/1", "has characters no listed family can show: U+C548, U+B155"]])
    }
}

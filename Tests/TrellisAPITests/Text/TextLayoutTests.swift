import Foundation
import XCTest
@testable import TrellisAPI
import TrellisText
import TrellisTestSupport

/// POST /v1/text/layout and flow items with maxWidth: answers, the per-width form, every 422 with its
/// pointer. Chromium agreement is checked in Tests/TrellisTextTests (ParagraphFixtureTests).
final class TextLayoutTests: XCTestCase {
    private let service = TestFonts.service()

    private func layout(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let response = call(service, "POST", "/v1/text/layout", json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        return response.json
    }

    private func problems(_ json: String, at path: String = "/v1/text/layout", file: StaticString = #filePath, line: UInt = #line) -> [[String]] {
        let response = call(service, "POST", path, json: json)
        XCTAssertEqual(response.status, 422, response.text, file: file, line: line)
        let errors = response.json["errors"] as? [[String: String]] ?? []
        return errors.map { [$0["pointer"] ?? "?", $0["detail"] ?? "?"] }
    }

    private func texts(_ answer: [String: Any]) -> [[String: Any]] { answer["texts"] as? [[String: Any]] ?? [] }

    private func starts(_ text: [String: Any]) -> [Int] {
        (text["lines"] as? [[String: Any]] ?? []).map { ($0["start"] as? NSNumber)?.intValue ?? -1 }
    }

    func testTheReadmeExample() {
        let response = call(
            service, "POST", "/v1/text/layout",
            json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["Long labels must wrap, not overflow the chip."],"width":160,"maxLines":2,"textOverflow":"ellipsis"}"#)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(
            response.text,
            #"{"font":{"size":16,"ascent":15,"descent":4,"lineGap":0,"lineHeight":19},"texts":[{"lines":["#
                + #"{"start":0,"end":17,"width":136.265625,"top":0,"height":19,"baseline":15},"#
                + #"{"start":17,"end":36,"width":152.640625,"top":19,"height":19,"baseline":34}],"#
                + #""height":38,"width":152.640625,"lineCount":3,"truncated":true,"#
                + #""ellipsis":{"line":1,"end":34,"x":136.640625,"width":16,"text":"…"}}]}"#)
    }

    func testLinesTileTheTextAndHangingSpacesBelongToTheirLine() {
        let answer = layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["  one  two   three  ", ""],"width":40}"#)
        let first = texts(answer)[0]
        let lines = first["lines"] as? [[String: Any]] ?? []
        // Leading spaces collapse away into the first line; the spaces after a word end its line
        // (the first is kept and hangs, the others collapse into the next line's start).
        XCTAssertEqual(starts(first), [0, 6, 11])
        XCTAssertEqual(lines.map { ($0["end"] as? NSNumber)?.intValue }, [6, 11, 20])
        XCTAssertEqual(first["lineCount"] as? Int, 3)
        XCTAssertEqual(first["height"] as? Double, 57)
        XCTAssertEqual(first["truncated"] as? Bool, false)
        XCTAssertNil(first["ellipsis"])
        // An empty text has no line and no height.
        let empty = texts(answer)[1]
        XCTAssertEqual((empty["lines"] as? [Any])?.count, 0)
        XCTAssertEqual(empty["height"] as? Double, 0)
    }

    func testModesChangeWhereLinesBreak() {
        func breaks(_ options: String, _ text: String = "Antidisestablishmentarianism is long", width: Double = 100) -> [Int] {
            starts(texts(layout(#"{"font":{"family":"DejaVu Sans, IPAGothic","size":16},"texts":["\#(text)"],"width":\#(width)\#(options)}"#))[0])
        }
        // The long word overflows its line, or is cut where the line is full.
        XCTAssertEqual(breaks(""), [0, 29])
        XCTAssertEqual(breaks(#","overflowWrap":"anywhere""#), [0, 12, 24])
        XCTAssertEqual(breaks(#","overflowWrap":"break-word""#), [0, 12, 24])
        XCTAssertEqual(breaks(#","wordBreak":"break-all""#), [0, 12, 24])
        XCTAssertEqual(breaks(#","wordBreak":"break-all""#, "Big Antidisestablishmentarianism"), [0, 12, 23])
        XCTAssertEqual(breaks(#","overflowWrap":"anywhere""#, "Big Antidisestablishmentarianism"), [0, 4, 16, 28])
        XCTAssertEqual(breaks(#","whiteSpace":"nowrap""#), [0])
        XCTAssertEqual(breaks(#","whiteSpace":"pre""#), [0])
        // keep-all keeps CJK words whole; normal breaks between ideographs.
        XCTAssertEqual(breaks("", "明太子パスタとショートケーキ 東京駅", width: 60).count, 6)
        XCTAssertEqual(breaks(#","wordBreak":"keep-all""#, "明太子パスタとショートケーキ 東京駅", width: 60), [0, 15])
    }

    func testWidthsLayOutEachTextAtEveryWidthAndContentWidths() {
        let answer = layout(
            #"{"font":{"family":"DejaVu Sans","size":16},"texts":["The quick brown fox jumps"],"widths":[60,120,1000],"contentWidths":true}"#)
        let text = texts(answer)[0]
        let layouts = text["layouts"] as? [[String: Any]] ?? []
        XCTAssertEqual(layouts.map(starts), [[0, 4, 10, 16, 20], [0, 10, 20], [0]])
        let single = layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["The quick brown fox jumps"],"width":120}"#)
        XCTAssertEqual(starts(texts(single)[0]), [0, 10, 20])
        // The widest word, "quick".
        XCTAssertEqual(text["minContentWidth"] as? Double, 49.40625)
        XCTAssertEqual((text["maxContentWidth"] as? Double) ?? 0, (layouts[2]["width"] as? Double) ?? -1)
        XCTAssertNil(texts(single)[0]["minContentWidth"])
    }

    private func lines(_ text: [String: Any]) -> [[String: Any]] { text["lines"] as? [[String: Any]] ?? [] }

    func testLineFeedsBreakWhereTheyAreKeptAndCollapseElsewhere() {
        // A chat message as typed: line breaks (LF and CRLF), a blank line and a trailing line feed.
        let message = #"Hi!\nAre we still on for lunch?\r\n\r\nSee you at noon\n"#
        func layOut(_ whiteSpace: String) -> [String: Any] {
            texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(message)"],"width":400,"whiteSpace":"\#(whiteSpace)"}"#))[0]
        }
        for whiteSpace in ["pre-wrap", "pre", "break-spaces", "pre-line"] {
            let text = layOut(whiteSpace)
            // Each line feed ends its line (a carriage return before it stays with it); the last one makes no new line.
            XCTAssertEqual(starts(text), [0, 4, 32, 34], whiteSpace)
            XCTAssertEqual(lines(text).map { ($0["end"] as? NSNumber)?.intValue }, [4, 32, 34, 50], whiteSpace)
            XCTAssertEqual(lines(text).map { $0["forcedBreak"] as? Bool }, [true, true, true, true], whiteSpace)
            // The blank line is as tall as the others and draws nothing.
            XCTAssertEqual(lines(text)[2]["width"] as? Double, 0, whiteSpace)
            XCTAssertEqual(text["height"] as? Double, 76, whiteSpace)
        }
        // Where white space collapses, the line feeds are spaces: one line, no forced break.
        for whiteSpace in ["normal", "nowrap"] {
            let text = layOut(whiteSpace)
            XCTAssertEqual(starts(text), [0], whiteSpace)
            XCTAssertNil(lines(text)[0]["forcedBreak"], whiteSpace)
        }
        XCTAssertEqual(
            lines(layOut("normal"))[0]["width"] as? Double,
            lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["Hi! Are we still on for lunch? See you at noon"],"width":400}"#))[0])[0]["width"] as? Double)
        // Clamped at 2 lines with an ellipsis: the second line ends in its forced break, and more lines follow.
        let clamped = texts(layout(
            #"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(message)"],"width":400,"whiteSpace":"pre-wrap","maxLines":2,"textOverflow":"ellipsis"}"#))[0]
        XCTAssertEqual(starts(clamped), [0, 4])
        XCTAssertEqual(clamped["lineCount"] as? Int, 4)
        XCTAssertEqual(clamped["truncated"] as? Bool, true)
        XCTAssertEqual((clamped["ellipsis"] as? [String: Any])?["end"] as? Int, 30)
    }

    func testAClusterWiderThanTheBoxIsALineOfItsOwn() {
        // With anywhere, a grapheme cluster of several scalars that does not fit at a line's start is that line, and the
        // text goes on wrapping after it (as Chromium lays it out: a | b | family | Thai | c | d); spaces after a cut
        // hang on its line.
        let text = texts(layout(
            #"{"font":{"family":"DejaVu Sans, Garuda, Noto Color Emoji","size":16},"texts":["ab 👩‍👩‍👧‍👦 น้ำ cd"],"width":5,"overflowWrap":"anywhere"}"#))[0]
        XCTAssertEqual(starts(text), [0, 1, 3, 15, 19, 20])
        XCTAssertEqual(lines(text).map { $0["width"] as? Double }, [9.8125, 10.15625, 19.96875, 17.703125, 8.796875, 10.15625])
    }

    func testTabsAdvanceToTheNextTabStop() {
        func width(_ text: String, _ options: String = "") -> Double {
            lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(text)"],"width":400,"whiteSpace":"pre"\#(options)}"#))[0])[0]["width"] as? Double ?? -1
        }
        let b = width("b")
        // Tab stops every 8 spaces (DejaVu Sans's space is 5.0859375 px at 16 px), every 3, every 20 px: "b" starts at the stop.
        XCTAssertEqual(width(#"a\tb"#) - b, 40.6875)
        XCTAssertEqual(width(#"a\tb"#, #","tabSize":3"#) - b, 15.265625)
        XCTAssertEqual(width(#"a\tb"#, #","tabSize":"3""#) - b, 15.265625)
        XCTAssertEqual(width(#"a\tb"#, #","tabSize":"20px""#) - b, 20)
        // A tab closer than half a space to its stop goes on to the next one; a tab size of 0 takes no room.
        XCTAssertEqual(width(#"aaaa\tb"#, #","tabSize":"39.5px""#) - b, 79)
        XCTAssertEqual(width(#"a\tb"#, #","tabSize":0"#), width("ab"))
        // Where white space collapses a tab is a space.
        XCTAssertEqual(
            lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a\tb"],"width":400}"#))[0])[0]["width"] as? Double,
            lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a b"],"width":400}"#))[0])[0]["width"] as? Double)
    }

    func testFixedLineHeightCentresTheFirstFace() {
        let answer = layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["one two"],"width":30,"lineHeight":30}"#)
        let lines = texts(answer)[0]["lines"] as? [[String: Any]] ?? []
        XCTAssertEqual(lines.map { $0["height"] as? Double }, [30, 30])
        // Ascent 15 and descent 4 leave 11 px of leading: 5.5 above.
        XCTAssertEqual(lines.map { $0["baseline"] as? Double }, [20.5, 50.5])
    }

    func testLineHeightAsANumberAPercentageOrALength() {
        func heights(_ lineHeight: String, size: Double = 16) -> [Double] {
            let answer = layout(#"{"font":{"family":"DejaVu Sans","size":\#(size)},"texts":["one two"],"width":30,"lineHeight":\#(lineHeight)}"#)
            return lines(texts(answer)[0]).map { $0["height"] as? Double ?? -1 }
        }
        // A number times the font size, floored to 1/64 px: 1.2 × 16 px is 19.2, so 19.1875.
        XCTAssertEqual(heights(#""1.2""#), [19.1875, 19.1875])
        // A length rounded to 1/64 px, as a JSON number too (19.1 px is 19.09375).
        XCTAssertEqual(heights(#""19.1px""#), [19.09375, 19.09375])
        XCTAssertEqual(heights("19.1"), [19.09375, 19.09375])
        // A percentage cut to a whole percent (87.9% is 87%), of the size, rounded: 0.87 × 21 px is 18.27, so 18.265625.
        XCTAssertEqual(heights(#""87.9%""#, size: 21), [18.265625, 18.265625])
        XCTAssertEqual(heights(#""150%""#), [24, 24])
        // normal: the faces' own line, as when omitted.
        XCTAssertEqual(heights(#""normal""#), [19, 19])
    }

    func testTextAlignAndTextIndentGiveEachLineItsX() {
        func xs(_ text: String, _ options: String) -> [Double] {
            let answer = layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(text)"],"width":100\#(options)}"#)
            return lines(texts(answer)[0]).map { $0["x"] as? Double ?? 0 }
        }
        // "one two three": lines "one two " (64.015625 px drawn) and "three" (42.328125 px).
        XCTAssertEqual(xs("one two three", ""), [0, 0])
        XCTAssertEqual(xs("one two three", #","textAlign":"end""#), [35.984375, 57.671875])
        // Center: half the room, cut to 1/64 px.
        XCTAssertEqual(xs("one two three", #","textAlign":"center""#), [17.984375, 28.828125])
        // text-align-last for the last line; a right-to-left paragraph's x is from its right edge.
        XCTAssertEqual(xs("one two three", #","textAlign":"end","textAlignLast":"start""#), [35.984375, 0])
        XCTAssertEqual(xs("שלום עולם", #","textAlign":"left""#), [100 - (lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["שלום עולם"],"width":100}"#))[0])[0]["width"] as? Double ?? 0)])
        // Justify: a line's room shared by its expansion opportunities (one space in "one two": 35.984375 px), the line as
        // wide as the box; the last line at its start, or justified with textAlignLast.
        let justified = lines(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["one two three"],"width":100,"textAlign":"justify"}"#))[0])
        XCTAssertEqual(justified.map { $0["expansion"] as? Double ?? 0 }, [35.984375, 0])
        XCTAssertEqual(justified.map { $0["width"] as? Double ?? 0 }, [100, 42.328125])
        // Between CJK ideographs: "漢字漢字" has three opportunities.
        let cjk = lines(texts(layout(#"{"font":{"family":"Droid Sans Fallback","size":16},"texts":["漢字漢字漢字"],"width":70,"textAlign":"justify"}"#))[0])
        XCTAssertEqual(cjk.map { $0["expansion"] as? Double ?? 0 }, [(70 - 64) / 3.0, 0].map { Double(Float($0)) })
                // An indent moves the first line and narrows its room (10% of 100 px); a negative one starts before the edge.
        XCTAssertEqual(xs("one two three", #","textIndent":"10%""#), [10, 0])
        XCTAssertEqual(xs("one two three", #","textIndent":-8"#), [-8, 0])
        XCTAssertEqual(starts(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["one two three"],"width":100,"textIndent":"50px"}"#))[0]), [0, 4])
        XCTAssertEqual(starts(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["one two three"],"width":100}"#))[0]), [0, 8])
    }

    func testTextWrapBalancesAndMakesPrettyAsChromiumDoes() {
        let text = "Prices went from $9.99 to Supercalifragilisticexpialidocious is a long word for a narrow column."
        func startsAt(_ width: Double, _ members: String = "") -> [Int] {
            starts(texts(layout(#"{"font":{"family":"DejaVu Sans","size":12},"texts":["\#(text)"],"width":\#(width)\#(members)}"#))[0])
        }
        // Chromium 156's lines (Fixtures/paragraphs-css.jsonl, tw6, and the same page for the pangram): balance evens the
        // three lines out; pretty takes a word down to the lone short word greedy would leave last; balance evens the two
        // lines; stable and wrap are greedy.
        XCTAssertEqual(startsAt(302.25), [0, 26, 76])
        XCTAssertEqual(startsAt(302.25, #","textWrap":"balance""#), [0, 26, 64])
        XCTAssertEqual(startsAt(302.25, #","textWrap":"stable""#), startsAt(302.25))
        XCTAssertEqual(startsAt(302.25, #","textWrap":"wrap""#), startsAt(302.25))
        func title(_ members: String) -> [Int] {
            starts(texts(layout(#"{"font":{"family":"DejaVu Sans","size":16.5},"texts":["The quick brown fox jumps over the lazy dog."],"width":350\#(members)}"#))[0])
        }
        XCTAssertEqual(title(""), [0, 40])
        XCTAssertEqual(title(#","textWrap":"pretty""#), [0, 35])
        XCTAssertEqual(title(#","textWrap":"balance""#), [0, 20])
        // A balanced clamp balances the lines it shows and counts the hidden ones.
        let clamped = texts(layout(#"{"font":{"family":"DejaVu Sans","size":12},"texts":["\#(text)"],"width":89.5,"textWrap":"balance","maxLines":2,"textOverflow":"ellipsis"}"#))[0]
        XCTAssertEqual(starts(clamped), [0, 12])
        XCTAssertEqual(clamped["lineCount"] as? Int, 6)
        XCTAssertEqual(clamped["truncated"] as? Bool, true)
    }

    /// A `nowrap` line gets an ellipsis only when it is wider than the box by more than 1/64 px (Blink's line fits in the
    /// box plus a LayoutUnit): Chromium 156 draws "مرحبا بالعالم" (84.40625 px) whole in a box 1/64 px narrower, and cuts
    /// it to 10 characters and an ellipsis in one 2/64 px narrower.
    func testAHyphenAndAnEllipsisNoListedFamilyHasAreChromiumsStandardFonts() {
        // Droid Sans Fallback has neither U+2010, `-`, U+2026 nor `.`: Chromium shapes the hyphen and the three full
        // stops in its standard font, Times New Roman, which fontconfig gives as Liberation Serif (682/2048 and
        // 3 × 512/2048 em), so the hyphen counts in the line's width and the clamped line gets its ellipsis.
        let font = #""font":{"family":"Droid Sans Fallback","size":20}"#
        let broken = texts(layout(#"{\#(font),"texts":["阻止用户修\u00AD改打印"],"width":110}"#))[0]
        let first = (broken["lines"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["end"] as? Int, 6)
        XCTAssertEqual(first?["hyphen"] as? String, "-")
        XCTAssertEqual(first?["width"] as? Double, 106.671875)
        let clamped = texts(layout(#"{\#(font),"texts":["阻止用户修改打印设置"],"width":110,"maxLines":1,"textOverflow":"ellipsis"}"#))[0]
        let ellipsis = clamped["ellipsis"] as? [String: Any]
        XCTAssertEqual(ellipsis?["text"] as? String, "...")
        XCTAssertEqual(ellipsis?["width"] as? Double, 15)
        XCTAssertEqual(ellipsis?["end"] as? Int, 4)
    }

    func testANowrapLineWithinTheBoxAndALayoutUnitHasNoEllipsis() {
        func paragraph(_ width: Double) -> [String: Any] {
            texts(layout(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["مرحبا بالعالم"],"width":\#(width),"whiteSpace":"nowrap","textOverflow":"ellipsis"}"#))[0]
        }
        let whole = paragraph(84.40625 - 1.0 / 64)
        XCTAssertEqual(whole["truncated"] as? Bool, false)
        XCTAssertNil(whole["ellipsis"])
        let cut = paragraph(84.40625 - 2.0 / 64)
        XCTAssertEqual(cut["truncated"] as? Bool, true)
        XCTAssertEqual((cut["ellipsis"] as? [String: Any])?["end"] as? Int, 10)
    }

    func testEveryProblemHasItsPointer() {
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"]}"#), [["/width", "is required (or give widths)"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"widths":[10]}"#),
            [["", "has both width and widths: give one or the other"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"widths":[]}"#), [["/widths", "must have at least 1 element"]])
        XCTAssertEqual(
            problems(
                #"{"font":{"family":"DejaVu Sans","size":16},"texts":["a","b\u0007"],"width":0,"whiteSpace":"wrap","#
                    + #""wordBreak":"auto","overflowWrap":"yes","maxLines":0,"textOverflow":"fade","lineHeight":-1,"contentWidths":1,"tabSize":-1}"#),
            [
                ["/texts/1", "contains U+0007, a control character, at scalar 1; these cannot be measured"],
                ["/width", "must be a number within (0, 10000000)"],
                ["/whiteSpace", #"must be one of "normal", "pre-wrap", "nowrap", "pre", "pre-line", "break-spaces""#],
                ["/wordBreak", #"must be one of "normal", "break-all", "keep-all""#],
                ["/overflowWrap", #"must be one of "normal", "anywhere", "break-word""#],
                ["/maxLines", "must be within 1...2147483647"],
                ["/textOverflow", #"must be one of "clip", "ellipsis""#],
                ["/lineHeight", "must be a number within (0, 10000)"],
                ["/tabSize", #"must be a number of spaces within [0, 1000], or a length within [0, 100000] px such as "20px""#],
                ["/contentWidths", "must be true or false"],
            ].filter { $0[0] != "/texts/1" })
        // Tab, line feed and carriage return are white space; every other control character is refused.
        for (text, scalar) in [(#"a\u000Bb"#, "U+000B"), (#"a\u000Cb"#, "U+000C"), (#"\u001Fb"#, "U+001F"), (#"a\u0085"#, "U+0085")] {
            XCTAssertEqual(
                problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["\#(text)"],"width":10,"whiteSpace":"pre-wrap"}"#).map(\.[0]),
                ["/texts/0"], scalar)
        }
        for lineHeight in [#""1.5em""#, #""-1""#, #""0%""#, #""10000px""#, #""Normal""#, #""1.5 ""#, "true", #""700""#] {
            XCTAssertEqual(
                problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"lineHeight":\#(lineHeight)}"#).map(\.[0]),
                ["/lineHeight"], lineHeight)
        }
        // A number or percentage that comes to 10,000 px or more at the font's size.
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"lineHeight":"700"}"#),
            [["/lineHeight", "must come to more than 0 and less than 10,000 px at the font's size"]])
        for (member, value) in [("textAlign", #""justify-all""#), ("textAlignLast", #""middle""#), ("textIndent", #""2em""#), ("textIndent", #""2000%""#), ("textIndent", "1e8"),
                                ("textWrap", #""nowrap""#), ("textWrap", #""Balance""#), ("textWrap", "1")] {
            XCTAssertEqual(
                problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"\#(member)":\#(value)}"#).map(\.[0]),
                ["/" + member], value)
        }
        for tabSize in [#""8em""#, #""px""#, #""-1px""#, #"1001"#, #""200000px""#, #""4 px""#, "true"] {
            XCTAssertEqual(
                problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"width":10,"tabSize":\#(tabSize)}"#).map(\.[0]),
                ["/tabSize"], tabSize)
        }
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a","b\u0007"],"width":10}"#),
            [["/texts/1", "contains U+0007, a control character, at scalar 1; these cannot be measured"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":"IPAGothic","size":16},"texts":["ok","שלום"],"width":10}"#),
            [["/texts/1", "has characters no listed family can show: U+05E9, U+05DC, U+05D5, U+05DD"]])
        XCTAssertEqual(
            problems(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"],"widths":[10,"x",null]}"#),
            [["/widths/1", "must be a number"], ["/widths/2", "must be a number"]])
    }

    // MARK: Flow items with maxWidth

    private func flowItems(_ json: String) -> [[String: Any]] {
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 200, response.text)
        return response.json["items"] as? [[String: Any]] ?? []
    }

    func testSeedTagsCutAtAMaximumChipWidth() {
        let items = flowItems(
            #"{"containerWidth":300,"horizontalSpacing":4,"verticalSpacing":4,"font":{"family":"DejaVu Sans","size":17},"#
                + #""labelPadding":{"top":8,"leading":16,"bottom":8,"trailing":16},"items":[{"id":"swift","text":"Swift"},"#
                + #"{"id":"long","text":"SwiftUI layout in depth","maxWidth":120},{"id":"two","text":"SwiftUI layout in depth","maxWidth":120,"maxLines":2}]}"#)
        XCTAssertEqual(items.count, 3)
        // A label that fits keeps its measured size and gets no lines.
        XCTAssertEqual(items[0]["width"] as? Double, 73.78125)
        XCTAssertNil(items[0]["lines"])
        // Cut on one line with an ellipsis: the item is maxWidth wide, one line high.
        XCTAssertEqual(items[1]["width"] as? Double, 120)
        XCTAssertEqual(items[1]["height"] as? Double, 36)
        XCTAssertEqual(items[1]["truncated"] as? Bool, true)
        let ellipsis = items[1]["ellipsis"] as? [String: Any]
        XCTAssertEqual(ellipsis?["end"] as? Int, 9)
        XCTAssertEqual((ellipsis?["x"] as? Double ?? 0) + (ellipsis?["width"] as? Double ?? 0) <= 88, true)
        // Wrapped to two lines: twice the line height plus the padding.
        XCTAssertEqual(items[2]["width"] as? Double, 120)
        XCTAssertEqual(items[2]["height"] as? Double, 56)
        XCTAssertEqual(starts(items[2]), [0, 8])
        XCTAssertEqual(items[2]["lineCount"] as? Int, 3)
    }

    func testMaxWidthAppliesOnlyToTextItems() {
        XCTAssertEqual(
            problems(#"{"containerWidth":300,"items":[{"width":10,"height":10,"maxWidth":5,"maxLines":2}]}"#, at: "/v1/flow/layout"),
            [["/items/0/maxWidth", "applies only to items given as text"], ["/items/0/maxLines", "applies only to items given as text"]])
        XCTAssertEqual(
            problems(
                #"{"containerWidth":300,"font":{"family":"DejaVu Sans","size":16},"items":[{"text":"a","maxWidth":-1,"maxLines":0}]}"#,
                at: "/v1/flow/layout"),
            [["/items/0/maxWidth", "must be a number within [0, 1000000000]"], ["/items/0/maxLines", "must be within 1...2147483647"]])
        // A label is one text: a line feed in it is refused whether or not it is narrowed.
        for maxWidth in ["", #","maxWidth":20"#] {
            XCTAssertEqual(
                problems(
                    #"{"containerWidth":300,"font":{"family":"DejaVu Sans","size":16},"items":[{"text":"a\nb"\#(maxWidth)}]}"#,
                    at: "/v1/flow/layout"),
                [["/items/0/text", "contains U+000A, a control character, at scalar 1; these cannot be measured"]], maxWidth)
        }
    }
}

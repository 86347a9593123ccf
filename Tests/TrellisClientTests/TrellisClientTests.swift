import Foundation
import TrellisClient
import XCTest
import TrellisTestSupport

/// Every endpoint through TrellisClient against the live server, with openapi.yaml's example bodies.
final class TrellisClientTests: XCTestCase {
    typealias Client = TrellisClient

    /// openapi.yaml's outline example tree (nested form; the `title` member is ignored by the service).
    static let exampleTree = Client.OutlineTree(nodes: [
        .init(id: "root", children: [
            .init(id: "docs", children: [
                .init(id: "readme"),
                .init(id: "guides", children: [.init(id: "intro")]),
            ]),
            .init(id: "src", children: [.init(id: "main")]),
        ]),
        .init(id: "other"),
    ])

    func testOutlineExpansionExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().outlineExpansion(.init(tree: Self.exampleTree, selection: "readme"))
        XCTAssertEqual(answer.expand, ["root", "docs"])
        XCTAssertEqual(answer.paths, [.init(id: "readme", found: true, path: ["root", "docs", "readme"])])
    }

    func testOutlineExpansionFlatFormWithIntegerIdsAndOwnKeys() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let tree = Client.OutlineTree(
            flat: [.init(id: 3, parent: 1), .init(id: 1, parent: nil), .init(id: 2, parent: 1), .init(id: 4, parent: 2)],
            idKey: "key", parentKey: "up")
        let answer = try await server.client().outlineExpansion(.init(tree: tree, selections: [4, 3, "4"]))
        XCTAssertEqual(answer.expand, [1, 2])
        XCTAssertEqual(answer.paths, [
            .init(id: 4, found: true, path: [1, 2, 4]),
            .init(id: 3, found: true, path: [1, 3]),
            .init(id: "4", found: false, path: []),
        ])
    }

    func testOutlineRowsExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().outlineRows(
            .init(tree: Self.exampleTree, selection: "readme", offset: 0, limit: 3))
        XCTAssertEqual(answer.rows, [
            .init(index: 0, id: "root", depth: 0, parent: nil, expandable: true, expanded: true, selected: false),
            .init(index: 1, id: "docs", depth: 1, parent: "root", expandable: true, expanded: true, selected: false),
            .init(index: 2, id: "readme", depth: 2, parent: "docs", expandable: false, expanded: false, selected: true),
        ])
        XCTAssertEqual(answer.totalRows, 6)
        XCTAssertEqual(answer.selectedRow, 2)
        XCTAssertEqual(answer.noSelection, .init(selected: false))
    }

    /// The picker opens expanded to the selection and scrolled to it: each row's height from its wrapped label.
    func testOutlineRowsWithRowHeights() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let tree = Client.OutlineTree(nodes: [
            .init(id: "root", label: "Root", children: [
                .init(id: "docs", label: "Documentation for the layout engine and its virtual lists", children: [
                    .init(id: "readme", label: "README.md"), .init(id: "guides", label: "Guides"),
                ]),
            ]),
        ])
        let heights = Client.OutlineRowHeights(
            font: .init(family: "DejaVu Sans", size: 15), width: 200, indent: 20,
            padding: .init(top: 4, bottom: 4, leading: 28, trailing: 8), minHeight: 28, viewportHeight: 60)
        let answer = try await server.client().outlineRows(.init(tree: tree, selection: "readme", rowHeights: heights))
        XCTAssertEqual(answer.rows.map(\.height), [28, 62, 28, 28])
        XCTAssertEqual(answer.rows.map(\.offset), [0, 28, 90, 118])
        XCTAssertEqual(answer.totalHeight, 146)
        XCTAssertEqual(answer.selectedScrollOffset, 58)
    }

    func testOutlineSearchOnBothEndpoints() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let tree = Client.OutlineTree(nodes: [
            .init(id: "docs", label: "Docs", children: [.init(id: "readme", label: "README.md"), .init(id: "straße", label: "Straße")]),
            .init(id: "other", label: "Other"),
        ])
        let search = Client.OutlineSearch(query: "re")
        let rows = try await server.client().outlineRows(.init(tree: tree, selection: "other", search: search))
        XCTAssertEqual(rows.rows, [
            .init(index: 0, id: "docs", depth: 0, parent: nil, expandable: true, expanded: true, selected: false),
            .init(index: 1, id: "readme", depth: 1, parent: "docs", expandable: false, expanded: false, selected: false,
                  match: .init(ranges: [[0, 2]])),
        ])
        XCTAssertEqual(rows.matchCount, 1)
        XCTAssertNil(rows.selectedRow)
        let expansion = try await server.client().outlineExpansion(.init(tree: tree, search: .init(query: "SS", mode: "words")))
        XCTAssertEqual(expansion.expand, ["docs"])
        XCTAssertEqual(expansion.paths, [])
        XCTAssertEqual(expansion.matches, [.init(id: "straße", ranges: [[4, 5]])])
    }

    /// openapi.yaml's FlowLayoutRequest example, the seed's chips.
    static let flowExample = Client.FlowLayoutRequest(
        containerWidth: 300,
        items: [
            .init(id: "swift", width: 62, height: 36), .init(id: "swiftui", width: 84, height: 36),
            .init(id: "uikit", width: 66, height: 36), .init(id: "xcode", width: 68, height: 36),
            .init(id: "apple", width: 66, height: 36), .init(id: "ios", width: 50, height: 36),
            .init(id: "ipad", width: 56, height: 36),
        ],
        horizontalSpacing: 4, verticalSpacing: 4)

    /// openapi.yaml's text example: the seed's tags measured in DejaVu Sans 17 px, and a 422 with its pointer.
    func testTextMeasureExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().textMeasure(
            .init(font: .init(family: "DejaVu Sans, IPAGothic", size: 17), texts: ["Swift", "SwiftUI", "明太子パスタ"]))
        XCTAssertEqual(answer.font, .init(size: 17, ascent: 16, descent: 4, lineGap: 0, lineHeight: 20))
        XCTAssertEqual(answer.texts.map(\.width), [41.78125, 59.234375, 102])
        XCTAssertEqual(answer.texts.map(\.height), [20, 20, 20])
        do {
            _ = try await server.client().textMeasure(.init(font: .init(family: "IPAGothic", size: 16, style: .oblique), texts: ["שלום"]))
            XCTFail("an uncovered text was measured")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.errors.map(\.pointer), ["/texts/0"])
        } catch {
            XCTFail("\(error)")
        }
    }

    /// openapi.yaml's clamp example: a label clamped to two lines with an ellipsis, the answer it documents.
    func testTextLayoutClampExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().textLayout(.init(
            font: .init(family: "DejaVu Sans", size: 16), texts: ["Long labels must wrap, not overflow the chip."],
            width: 160, maxLines: 2, textOverflow: .ellipsis))
        XCTAssertEqual(answer.font, .init(size: 16, ascent: 15, descent: 4, lineGap: 0, lineHeight: 19))
        XCTAssertEqual(answer.texts.count, 1)
        XCTAssertEqual(answer.texts[0].atEachWidth, false)
        XCTAssertEqual(answer.texts[0].paragraph, .init(
            lines: [
                .init(start: 0, end: 17, width: 136.265625, top: 0, height: 19, baseline: 15),
                .init(start: 17, end: 36, width: 152.640625, top: 19, height: 19, baseline: 34),
            ],
            height: 38, width: 152.640625, lineCount: 3, truncated: true,
            ellipsis: .init(line: 1, end: 34, x: 136.640625, width: 16, text: "…")))
        XCTAssertNil(answer.texts[0].minContentWidth)
    }

    /// openapi.yaml's widths example: each text at each width is the paragraph a request at that width alone answers,
    /// its lines tile the text, and a narrower box never has fewer lines; a kept line feed is a forced break, and a text
    /// with another control character is a 422 at its pointer.
    func testTextLayoutAtSeveralWidthsAgreesWithEachWidthAlone() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let client = server.client()
        let font = Client.TextFont(family: "DejaVu Sans, IPAGothic, Garuda, NanumBarunGothic, Noto Color Emoji", size: 15)
        let texts = ["The quick brown fox jumps over the lazy dog.", "明太子パスタとショートケーキ", "ภาษาไทยเขียนติดกัน", "안녕하세요 🎉"]
        let widths = [80.0, 160, 320]
        let answer = try await client.textLayout(.init(font: font, texts: texts, widths: widths, wordBreak: .keepAll, contentWidths: true))
        XCTAssertEqual(answer.texts.count, texts.count)
        for (k, width) in widths.enumerated() {
            let alone = try await client.textLayout(.init(font: font, texts: texts, width: width, wordBreak: .keepAll))
            for (i, text) in answer.texts.enumerated() {
                XCTAssertTrue(text.atEachWidth)
                XCTAssertEqual(text.layouts.count, widths.count)
                XCTAssertEqual(text.layouts[k], alone.texts[i].paragraph, "text \(i) at \(width)")
                XCTAssertEqual(text.layouts[k].lines.first?.start, 0)
                XCTAssertEqual(text.layouts[k].lines.last?.end, texts[i].utf16.count)
                for (line, next) in zip(text.layouts[k].lines, text.layouts[k].lines.dropFirst()) {
                    XCTAssertEqual(line.end, next.start, "text \(i) at \(width): the lines tile the text")
                }
                if k > 0 { XCTAssertGreaterThanOrEqual(text.layouts[k - 1].lineCount, text.layouts[k].lineCount) }
            }
        }
        for text in answer.texts {
            let least = try XCTUnwrap(text.minContentWidth), most = try XCTUnwrap(text.maxContentWidth)
            XCTAssertLessThanOrEqual(least, most)
            XCTAssertEqual(text.layouts.last?.lineCount == 1, most <= 320)
        }
        // A kept line feed ends its line, and says so; a control character other than tab, LF and CR is a 422.
        let typed = try await client.textLayout(.init(font: font, texts: ["two\nlines"], width: 100, whiteSpace: .preWrap, tabSize: .px(20)))
        XCTAssertEqual(typed.texts.first?.paragraph?.lines.map(\.forcedBreak), [true, nil])
        // Alignment and indent: each line's x, a justified line's expansion.
        var aligned = Client.TextLayoutRequest(font: font, texts: ["one two three"], width: 100)
        aligned.textAlign = .justify
        aligned.textAlignLast = .end
        aligned.textIndent = 8
        let alignedAnswer = try await client.textLayout(aligned)
        let placed = try XCTUnwrap(alignedAnswer.texts.first?.paragraph?.lines)
        XCTAssertEqual(placed.map(\.x), [8, placed.last.map { 100 - $0.width }])
        XCTAssertEqual(placed.first?.expansion.map { $0 > 0 }, true)
        // Letter and word spacing, in px and em: "one two three" in one line is 13 clusters and 2 spaces wider.
        var plain = Client.TextLayoutRequest(font: font, texts: ["one two three"], width: 1000)
        let plainAnswer = try await client.textLayout(plain)
        let plainWidth = try XCTUnwrap(plainAnswer.texts.first?.paragraph?.lines.first?.width)
        plain.letterSpacing = .px(1)
        plain.wordSpacing = .em(0.25)
        let spacedAnswer = try await client.textLayout(plain)
        let spacedWidth = try XCTUnwrap(spacedAnswer.texts.first?.paragraph?.lines.first?.width)
        XCTAssertEqual(spacedWidth, plainWidth + 13 + 2 * 0.25 * font.size)
        var measure = Client.TextMeasureRequest(font: font, texts: ["one two three"])
        measure.letterSpacing = .px(1)
        measure.wordSpacing = .em(0.25)
        let measured = try await client.textMeasure(measure)
        XCTAssertEqual(measured.texts.first?.width, spacedWidth)
        // A break at a soft hyphen shows a hyphen; hyphens: none takes no such break.
        var soft = Client.TextLayoutRequest(font: font, texts: ["extra\u{AD}ordinary"], width: 60)
        let softAnswer = try await client.textLayout(soft)
        XCTAssertEqual(softAnswer.texts.first?.paragraph?.lines.map(\.hyphen), ["\u{2010}", nil])
        soft.hyphens = TrellisClient.TextHyphens.none
        let noneAnswer = try await client.textLayout(soft)
        XCTAssertEqual(noneAnswer.texts.first?.paragraph?.lines.count, 1)
        // text-wrap: balance evens the lines out (the same lines as Chromium 156: TextLayoutTests).
        var balanced = Client.TextLayoutRequest(font: Client.TextFont(family: "DejaVu Sans", size: 16.5), texts: ["The quick brown fox jumps over the lazy dog."], width: 350)
        balanced.textWrap = .balance
        let balancedAnswer = try await client.textLayout(balanced)
        XCTAssertEqual(balancedAnswer.texts.first?.paragraph?.lines.map(\.start), [0, 20])
        balanced.textWrap = .pretty
        let prettyAnswer = try await client.textLayout(balanced)
        XCTAssertEqual(prettyAnswer.texts.first?.paragraph?.lines.map(\.start), [0, 35])
        do {
            _ = try await client.textLayout(.init(font: font, texts: ["one", "two\u{7}bell"], width: 100))
            XCTFail("a control character was laid out")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.status, 422)
            XCTAssertEqual(problem.errors.map(\.pointer), ["/texts/1"])
        } catch {
            XCTFail("\(error)")
        }
    }

    /// Every form of lineHeight the client offers encodes to what the server takes, and resolves as Chromium's does at
    /// 16 px: normal is the face's line (19), px is px, a multiple is floored to 1/64 px, a percentage is cut to a whole
    /// percent first; a list's paragraph properties take the same forms.
    func testTextLayoutLineHeightInEveryForm() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let client = server.client()
        let font = Client.TextFont(family: "DejaVu Sans", size: 16)
        let forms: [(Client.TextLineHeight, String, Double)] = [
            (.normal, #""normal""#, 19), (.px(24.5), "24.5", 24.5), (30, "30", 30), (.multiple(1.2), #""1.2""#, 19.1875),
            (.percent(87.9), #""87.9%""#, 13.921875), (.percent(150), #""150.0%""#, 24),
        ]
        for (lineHeight, wire, expected) in forms {
            var request = Client.TextLayoutRequest(font: font, texts: ["one two three four"], width: 60)
            request.lineHeight = lineHeight
            let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            XCTAssertTrue(body.contains(#""lineHeight":\#(wire)"#), "\(lineHeight): \(body)")
            XCTAssertEqual(try JSONDecoder().decode(Client.TextLayoutRequest.self, from: Data(body.utf8)).lineHeight, lineHeight)
            let answer = try await client.textLayout(request)
            let paragraph = try XCTUnwrap(answer.texts.first?.paragraph)
            XCTAssertEqual(paragraph.lines.map(\.height), Array(repeating: expected, count: paragraph.lines.count), "\(lineHeight)")
            XCTAssertEqual(paragraph.height, expected * Double(paragraph.lines.count), "\(lineHeight)")
        }
        XCTAssertEqual(try JSONDecoder().decode(Client.TextLineHeight.self, from: Data(#""24PX""#.utf8)), .px(24))
        let list = try await client.listLayout(Client.ListLayoutRequest(
            font: font, rows: [.init(texts: ["one"]), .init(texts: [.init("two", properties: .init(lineHeight: .percent(200)))])],
            width: 100, properties: .init(lineHeight: .multiple(1.5))))
        XCTAssertEqual(list.layouts.first?.heights, [24, 32])
    }

    func testFlowLayoutExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().flowLayout(Self.flowExample)
        XCTAssertEqual(answer.items, [
            .init(id: "swift", index: 0, row: 0, x: 4, y: 4, width: 62, height: 36),
            .init(id: "swiftui", index: 1, row: 0, x: 74, y: 4, width: 84, height: 36),
            .init(id: "uikit", index: 2, row: 0, x: 166, y: 4, width: 66, height: 36),
            .init(id: "xcode", index: 3, row: 1, x: 4, y: 48, width: 68, height: 36),
            .init(id: "apple", index: 4, row: 1, x: 80, y: 48, width: 66, height: 36),
            .init(id: "ios", index: 5, row: 1, x: 154, y: 48, width: 50, height: 36),
            .init(id: "ipad", index: 6, row: 1, x: 212, y: 48, width: 56, height: 36),
        ])
        XCTAssertEqual(answer.rows, [
            .init(y: 0, height: 44, width: 236, start: 0, count: 3),
            .init(y: 44, height: 44, width: 272, start: 3, count: 4),
        ])
        XCTAssertEqual(answer.size, .init(width: 300, height: 88))
        XCTAssertEqual(answer.hiddenCount, 0)
        XCTAssertNil(answer.overflowIndicator)
    }

    func testFlowLayoutOverflowIndicator() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        var request = Self.flowExample
        request.maxRows = 1
        request.overflowIndicator = .init(width: 40, height: 36)
        let answer = try await server.client().flowLayout(request)
        XCTAssertEqual(answer.rows.count, 1)
        XCTAssertEqual(answer.hiddenCount + answer.items.count, 7)
        XCTAssertEqual(answer.overflowIndicator?.count, answer.hiddenCount)
    }

    /// Chips with the text properties: a label's kept line feed ends its line, its lines are centred in the chip, and
    /// letter spacing widens it; the answer's lines decode.
    func testFlowLayoutLabelsWithTextProperties() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        var request = Client.FlowLayoutRequest(
            containerWidth: 300, items: [.init(id: "sam", text: "Sam Lee\nonline"), .init(id: "ana", text: "Ana")],
            font: .init(family: "DejaVu Sans", size: 16), labelPadding: .init(leading: 8, trailing: 8))
        request.whiteSpace = .preLine
        request.textAlign = .center
        request.letterSpacing = .em(0.05)
        let answer = try await server.client().flowLayout(request)
        XCTAssertEqual(answer.items.map(\.width), [90.5625, 49.296875])
        XCTAssertEqual(answer.items.map(\.height), [38, 19])
        let lines = try XCTUnwrap(answer.items.first?.lines)
        XCTAssertEqual(lines.map(\.start), [0, 8])
        XCTAssertEqual(lines.map(\.forcedBreak), [true, nil])
        XCTAssertEqual(lines.map(\.x), [nil, 10.46875])
        XCTAssertEqual(answer.items.last?.lines?.count, 1)
        request.whiteSpace = nil
        do {
            _ = try await server.client().flowLayout(request)
            XCTFail("a line feed was measured without whiteSpace")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.errors.map(\.pointer), ["/items/0/text"])
        } catch {
            XCTFail("\(error)")
        }
    }

    func testSectionsToggleSeedExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().sectionsToggle(.init(
            sections: [
                .init(id: "食べ物", items: ["明太子パスタ", "ショートケーキ", "プロシュート", "パウンドケーキ"]),
                .init(id: "飲み物", items: ["コーラ", "ルイボスティー"]),
            ],
            expanded: ["食べ物"], toggle: "飲み物"))
        XCTAssertEqual(answer.expanded, ["食べ物", "飲み物"])
        XCTAssertEqual(answer.changed, ["飲み物"])
        XCTAssertEqual(answer.sections, [
            .init(
                id: "食べ物", expanded: true, headerDisabled: false, icon: "chevron.up", showDivider: false,
                items: ["明太子パスタ", "ショートケーキ", "プロシュート", "パウンドケーキ"], itemCount: 4),
            .init(
                id: "飲み物", expanded: true, headerDisabled: false, icon: "chevron.up", showDivider: false,
                items: ["コーラ", "ルイボスティー"], itemCount: 2),
        ])
    }

    func testSectionsToggleAccordionExampleEchoesAnyJSON() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let items: [TrellisValue] = ["b", 2.5, nil, true, ["nested": [1, "x"]]]
        let answer = try await server.client().sectionsToggle(.init(
            sections: [.init(id: 1, items: ["a"]), .init(id: 2, items: items)],
            expanded: [1], mode: .single, collapsible: false, actions: [.collapseAll, .expand(2)]))
        XCTAssertEqual(answer.expanded, [2])
        XCTAssertEqual(answer.changed, [1, 2])
        XCTAssertEqual(answer.sections.map(\.headerDisabled), [false, true])
        XCTAssertEqual(answer.sections.map(\.icon), ["chevron.down", "chevron.up"])
        XCTAssertEqual(answer.sections[0].items, [])
        XCTAssertEqual(answer.sections[0].itemCount, 1)
        XCTAssertEqual(answer.sections[1].items, items)
    }

    func testDrawerStateSeedExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().drawerState(.init(
            isPresented: false, action: .toggle, container: .init(width: 390, height: 844), drawerWidth: 200,
            edge: .leading, layoutDirection: .ltr, safeAreaInsets: .init(top: 47, leading: 0, bottom: 34, trailing: 0),
            maskOpacity: 0.2, spring: .init(response: 0.55, dampingFraction: 0.825), frameRate: 60))
        XCTAssertTrue(answer.isPresented)
        XCTAssertTrue(answer.changed)
        XCTAssertEqual(answer.panel, .init(
            frame: .init(x: 0, y: 0, width: 200, height: 844), contentFrame: .init(x: 0, y: 47, width: 200, height: 763),
            visible: true))
        XCTAssertEqual(answer.mask, .init(frame: .init(x: 0, y: 0, width: 390, height: 844), opacity: 0.2, visible: true))
        let transition = try XCTUnwrap(answer.transition)
        XCTAssertEqual(transition.panel, .init(fromX: -200, toX: 0))
        XCTAssertEqual(transition.mask, .init(fromOpacity: 0, toOpacity: 0.2))
        XCTAssertEqual(transition.spring, .init(
            response: 0.55, dampingFraction: 0.825, stiffness: 130.5071656342394, damping: 18.84955592153876,
            settlingDuration: 0.7574549580288646))
        XCTAssertEqual(transition.keyframes.count, 47)
        XCTAssertEqual(transition.keyframes.first, .init(t: 0, progress: 0))
        XCTAssertEqual(transition.keyframes[1], .init(t: 0.016666666666666666, progress: 0.016319698874538657))
        XCTAssertEqual(transition.keyframes.last, .init(t: 0.7666666666666667, progress: 1))
        XCTAssertEqual(transition.css.duration, "758ms")
        XCTAssertEqual(
            transition.css.easing,
            "linear(0, 0.005516 1.2496%, 0.026165 2.8262%, 0.061132 4.4965%, 0.118422 6.5794%, 0.214746 9.506%, 0.476658 16.9093%, 0.582566 20.2148%, 0.672346 23.3928%, 0.74414 26.3445%, 0.811166 29.6404%, 0.860011 32.5842%, 0.903488 35.8691%, 0.940577 39.5838%, 0.970338 43.8564%, 0.992013 48.8822%, 1.00519 54.9797%, 1.010166 65.0285%, 1)")
    }

    /// openapi.yaml's list example's rows: a small chat of message bubbles and a day header.
    static let chatRows: [Client.ListRow] = {
        let bubble = Client.ListPadding(top: 8, bottom: 8, leading: 12, trailing: 12)
        return [
            .init(key: "m1", texts: ["Are we still on for lunch tomorrow? 🍜"], padding: bubble),
            .init(key: "m2", texts: ["Yes! 12:30 at the usual place, I booked the table by the window."], padding: bubble, extraHeight: 22),
            .init(key: "day", texts: ["Tuesday"], minHeight: 32),
            .init(key: "m3", texts: [
                .init("Bringing the slides for the review too, they are long but the summary is on the first page.",
                      properties: .init(maxLines: 2, textOverflow: "ellipsis")),
                "Sent from my phone",
            ], padding: bubble),
        ]
    }()

    /// openapi.yaml's list example: a small chat at two widths, kept in place at its second message.
    func testListLayoutExample() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let request = Client.ListLayoutRequest(
            font: .init(family: "DejaVu Sans, Noto Color Emoji", size: 15), rows: Self.chatRows,
            widths: [280, 560], paragraphGap: 4, gap: 8, scroll: .init(offset: 40, viewportHeight: 80), anchor: .init(key: "m2", offset: 6))
        let answer = try await server.client().listLayout(request)
        XCTAssertEqual(answer.layouts.first, .init(
            width: 280, heights: [52, 74, 32, 74], offsets: [0, 60, 142, 182], total: 256, lineCounts: [2, 2, 1, 4],
            truncated: [false, false, false, true], window: .init(start: 1, end: 3), anchor: .init(index: 1, scrollOffset: 66)))
        XCTAssertEqual(answer.layouts.last?.anchor, .init(index: 1, scrollOffset: 48))
        // The request as the client encodes it reads back the same; a paragraph without properties is a plain string.
        let encoded = try JSONEncoder().encode(request)
        XCTAssertEqual(try JSONDecoder().decode(Client.ListLayoutRequest.self, from: encoded), request)
        let text = String(decoding: encoded, as: UTF8.self)
        XCTAssertTrue(text.contains(#""texts":["Tuesday"]"#), text)
        XCTAssertTrue(text.contains(#""maxLines":2"#), text)
        let shared = Client.ListLayoutRequest(font: .init(family: "DejaVu Sans", size: 14), rows: [.init(texts: ["a b c"])], width: 10,
                                              properties: .init(maxLines: 1, textOverflow: "ellipsis"))
        let clamped = try await server.client().listLayout(shared)
        XCTAssertEqual(clamped.layouts[0].truncated, [true])
        XCTAssertEqual(clamped.layouts[0].lineCounts, [3])
    }

    /// A kept list: the chat sent once with keep answers its id; named at other widths with an anchor, it answers what
    /// the rows sent again answer, and its id again. An id the service does not keep is a problem of type listNotKept
    /// at /list.
    func testKeptListIsLaidOutAsTheRowsSentAgain() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let client = server.client()
        var request = Client.ListLayoutRequest(
            font: .init(family: "DejaVu Sans, Noto Color Emoji", size: 15), rows: Self.chatRows, widths: [200, 320], paragraphGap: 4,
            gap: 8, keep: true)
        let kept = try await client.listLayout(request)
        let id = try XCTUnwrap(kept.list)
        XCTAssertEqual(id.count, 32)
        XCTAssertTrue(id.allSatisfy { "0123456789abcdef".contains($0) }, id)
        // Without keep the answer names no list.
        request.keep = nil
        let unkept = try await client.listLayout(request)
        XCTAssertEqual(unkept, .init(layouts: kept.layouts))

        let anchor = Client.ListAnchor(key: "m2", offset: 3)
        let named = try await client.listLayout(Client.KeptListLayoutRequest(list: id, widths: [250, 400], anchor: anchor))
        XCTAssertEqual(named.list, id)
        request.widths = [250, 400]
        request.anchor = anchor
        let again = try await client.listLayout(request)
        XCTAssertNil(again.list)
        XCTAssertEqual(named.layouts, again.layouts)
        XCTAssertEqual(named.layouts.map(\.width), [250, 400])
        XCTAssertEqual(named.layouts.map { $0.anchor?.index }, [1, 1])

        do {
            _ = try await client.listLayout(Client.KeptListLayoutRequest(list: String(repeating: "0", count: 32), width: 320))
            XCTFail("a list never kept was laid out")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.status, 422)
            XCTAssertEqual(problem.type, Client.listNotKept)
            XCTAssertEqual(problem.errors.map(\.pointer), ["/list"])
        } catch {
            XCTFail("\(error)")
        }

        // On the wire: keep is sent when set, a kept list's request only the members given, and a list the service
        // could not keep (null) reads as nil.
        let keepBody = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(
            Client.ListLayoutRequest(font: .init(family: "serif", size: 12), rows: [], width: 10, keep: true))) as? [String: Any])
        XCTAssertEqual(keepBody["keep"] as? Bool, true)
        let keptBody = try JSONEncoder().encode(Client.KeptListLayoutRequest(list: id, widths: [250, 400], anchor: anchor))
        XCTAssertEqual(Set(try XCTUnwrap(JSONSerialization.jsonObject(with: keptBody) as? [String: Any]).keys), ["list", "widths", "anchor"])
        XCTAssertEqual(try JSONDecoder().decode(Client.KeptListLayoutRequest.self, from: keptBody), .init(list: id, widths: [250, 400], anchor: anchor))
        let notKept = try JSONDecoder().decode(Client.ListLayoutResponse.self, from: Data(#"{"layouts":[],"list":null}"#.utf8))
        XCTAssertEqual(notKept, .init(layouts: []))
    }

    func testDrawerWithoutActionHasNoTransition() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().drawerState(.init(
            container: .init(width: 390, height: 844), spring: .init(duration: 0.5, bounce: 0.2)))
        XCTAssertFalse(answer.isPresented)
        XCTAssertFalse(answer.changed)
        XCTAssertNil(answer.transition)
        XCTAssertEqual(answer.panel.frame.x, -200)
    }

    /// docs/clients.md's 422 example: every problem comes back in the typed error with its pointer.
    func testValidationProblemIsThrownWithEveryPointer() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let tree = Client.OutlineTree(flat: [
            .init(id: "a", parent: "b"), .init(id: "b", parent: "a"), .init(id: "c", parent: "x"), .init(id: "a", parent: nil),
        ])
        do {
            _ = try await server.client().outlineExpansion(.init(tree: tree, selection: "a"), requestID: "bad-tree-1")
            XCTFail("a tree with a cycle, an unknown parent and a duplicate id was accepted")
        } catch {
            let problem = try XCTUnwrap(error.problem)
            XCTAssertEqual(problem.status, 422)
            XCTAssertEqual(problem.title, "Unprocessable Content")
            XCTAssertEqual(problem.detail, "The request body has 3 problems; see errors.")
            XCTAssertEqual(problem.errors.map(\.pointer), ["/nodes/3/id", "/nodes/2/parent", "/nodes/0/parent"])
            XCTAssertEqual(problem.errors[0].detail, "duplicates the id \"a\" first given at /nodes/0/id")
            XCTAssertEqual(problem.requestID, "bad-tree-1")
        }
    }

    func testRequestIDRoundTrip() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let perCall = try await server.client().send(Self.flowExample, requestID: "chips-42")
        XCTAssertEqual(perCall.requestID, "chips-42")
        XCTAssertEqual(perCall.status, 200)
        XCTAssertEqual(perCall.value.items.count, 7)

        let client = server.client(requestID: "client-default-7")
        let byDefault = try await client.send(Self.flowExample)
        XCTAssertEqual(byDefault.requestID, "client-default-7")

        // Rule: without an id of its own the client still gets the service's generated one.
        let generated = try await server.client().send(Self.flowExample)
        XCTAssertFalse(generated.requestID?.isEmpty ?? true)
    }

    func testTimeoutIsATransportFailure() async throws {
        let listener = try SilentListener()
        let client = TrellisClient(baseURL: URL(string: "http://127.0.0.1:\(listener.port)")!, timeout: 0.5)
        let started = Date()
        do {
            _ = try await client.flowLayout(Self.flowExample)
            XCTFail("a server that never answers gave an answer")
        } catch {
            guard case .transport(let failure) = error else { return XCTFail("expected .transport, got \(error)") }
            XCTAssertTrue(failure.isTimeout, "\(failure)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testTypesRoundTripThroughJSON() throws {
        let request = Client.OutlineRowsRequest(
            tree: .init(flat: [.init(id: 1, parent: nil), .init(id: "x", parent: 1)], idKey: "key", parentKey: "up"),
            selection: "x", expanded: [1], limit: 10)
        let data = try JSONEncoder().encode(request)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let nodes = try XCTUnwrap(object["nodes"] as? [[String: Any]])
        XCTAssertEqual(nodes[0]["key"] as? Int, 1)
        XCTAssertTrue(nodes[0]["up"] is NSNull)
        XCTAssertEqual(nodes[1]["up"] as? Int, 1)
        XCTAssertNil(object["offset"])
        XCTAssertEqual(try JSONDecoder().decode(Client.OutlineRowsRequest.self, from: data), request)
        XCTAssertEqual(
            try JSONDecoder().decode(Client.OutlineExpansionRequest.self, from: JSONEncoder().encode(
                Client.OutlineExpansionRequest(tree: Self.exampleTree, selection: 7))),
            Client.OutlineExpansionRequest(tree: Self.exampleTree, selection: 7))
        XCTAssertEqual(try JSONDecoder().decode([TrellisID].self, from: Data(#"["1", 1]"#.utf8)), ["1", 1])

        // A text's layout at one width is the paragraph's members inline; at several, `layouts`.
        let line = #"{"start":0,"end":2,"width":9.5,"top":0,"height":19,"baseline":15}"#
        let paragraph = #"{"lines":[\#(line)],"height":19,"width":9.5,"lineCount":1,"truncated":false}"#
        let answer = #"{"font":{"size":16,"ascent":15,"descent":4,"lineGap":0,"lineHeight":19},"texts":[\#(paragraph),"#
            + #"{"layouts":[\#(paragraph),\#(paragraph)],"minContentWidth":4,"maxContentWidth":9.5}]}"#
        let decoded = try JSONDecoder().decode(Client.TextLayoutResponse.self, from: Data(answer.utf8))
        XCTAssertEqual(decoded.texts.map(\.atEachWidth), [false, true])
        XCTAssertEqual(decoded.texts.map(\.layouts.count), [1, 2])
        XCTAssertEqual(decoded.texts[1].minContentWidth, 4)
        let again = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(decoded)) as? [String: Any])
        let texts = try XCTUnwrap(again["texts"] as? [[String: Any]])
        XCTAssertEqual(Set(texts[0].keys), ["lines", "height", "width", "lineCount", "truncated"])
        XCTAssertEqual(Set(texts[1].keys), ["layouts", "minContentWidth", "maxContentWidth"])
        XCTAssertEqual(try JSONDecoder().decode(Client.TextLayoutResponse.self, from: JSONEncoder().encode(decoded)), decoded)
        let layoutRequest = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(
            Client.TextLayoutRequest(font: .init(family: "serif", size: 12), texts: ["a"], widths: [10, 20], whiteSpace: .preWrap)))
            as? [String: Any])
        XCTAssertEqual(Set(layoutRequest.keys), ["font", "texts", "widths", "whiteSpace"])
        XCTAssertEqual(layoutRequest["whiteSpace"] as? String, "pre-wrap")
    }
}

/// A loopback socket that accepts connections (through the kernel's backlog) and never answers.
final class SilentListener {
    let fd: Int32
    let port: Int

    struct Failure: Error {}

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw Failure()
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}

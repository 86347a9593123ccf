@testable import TrellisText
import TrellisTestSupport
import XCTest

/// A paragraph of Latin text keeps its break opportunities, the same from every line start, and its lines are then
/// found by a search over them: every line must be the one the breaker finds, at every width, in every style.
final class KeptBreaksTests: XCTestCase {
    static let pieces = [
        "the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "Layout", "ABCD-1234", "-5", "x-7", "well-known",
        "(see", "this)", "[a]", "{b}", "$100", "50%", "e.g.", "i.e.,", "don't", "\"quoted\"", "a/b", "c?d", "e!f", "g:h", "#tag",
        "@user", "a+b", "über", "naïve", "façade", "café", "«guillemets»", "¿qué?", "¡sí!", "x\u{A0}y", "10\u{A0}km", "§2",
        "©", "½", "AVAV", "To", "WAVE", "Ta.", "--", "...", "--9", "a-", "-", " ", "  ", "Wolf", "fjord", "office",
    ]

    static func texts(count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            (0..<(1 + next(60))).map { _ in pieces[next(pieces.count)] }.joined(separator: next(5) == 0 ? "" : " ")
        }
    }

    /// Where the kept opportunities are made, each is an opportunity the scanner finds from the text's start, and every
    /// other position is not.
    func testKeptOpportunitiesAreTheScannersFromTheTextsStart() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans", size: 16))
        let shaper = ParagraphShaper(font: font)
        var kept = 0
        for text in Self.texts(count: 400, seed: 7) {
            for whiteSpace in [WhiteSpace.normal, .preWrap] {
                guard case .success(let paragraph) = shaper.shape(text, whiteSpace: whiteSpace), !paragraph.keptBreaks.isEmpty else { continue }
                kept += 1
                let scanner = BreakOpportunities(
                    paragraph, wordBreak: .normal, lineStart: 0, boundaries: LineBoundaries(paragraph))
                let ends = Set(paragraph.keptBreaks.map { Int($0.end) })
                for i in 1..<paragraph.count {
                    XCTAssertEqual(ends.contains(i), scanner.isOpportunity(i), "at \(i): \(text)")
                }
                for entry in paragraph.keptBreaks {
                    XCTAssertEqual(Int(entry.visible), paragraph.visibleEnd(0, Int(entry.end)), text)
                }
            }
        }
        XCTAssertGreaterThan(kept, 500)
    }

    /// Every line found by the search over kept opportunities is the breaker's, at widths from narrower than a word to
    /// wider than the text, on and off the 1/64 px grid, in every style that breaks lines, with letter spacing too.
    func testLinesFromKeptOpportunitiesAreTheBreakers() throws {
        let fonts = try [
            XCTUnwrap(TestFonts.font("DejaVu Sans", size: 16)), XCTUnwrap(TestFonts.font("Liberation Serif", size: 15.5)),
            XCTUnwrap(TestFonts.font("DejaVu Sans", size: 13)).spaced(TextSpacing(letter: 0.5, word: 2)),
        ]
        let styles: [ParagraphStyle] = {
            var indented = ParagraphStyle()
            indented.textIndent = .length(37.5)
            var pretty = ParagraphStyle()
            pretty.textWrap = .pretty
            var balanced = ParagraphStyle(overflowWrap: .breakWord)
            balanced.textWrap = .balance
            var noHyphens = ParagraphStyle(whiteSpace: .preLine, maxLines: 2, textOverflow: .ellipsis)
            noHyphens.hyphens = .none
            return [
                ParagraphStyle(), ParagraphStyle(whiteSpace: .preWrap), ParagraphStyle(overflowWrap: .anywhere),
                ParagraphStyle(overflowWrap: .breakWord, maxLines: 3), ParagraphStyle(wordBreak: .breakAll), indented, pretty, balanced,
                noHyphens,
            ]
        }()
        let widths: [Double] = [0.5, 9, 20, 33.3, 48, 64.015625, 90, 120.5, 200, 333, 640, 1e4]
        var compared = 0
        var searched = 0
        for font in fonts {
            let fast = ParagraphShaper(font: font)
            let slow = ParagraphShaper(font: font)
            slow.scansKeptBreaks = false
            for text in Self.texts(count: 120, seed: 41) {
                for style in styles {
                    guard case .success(let paragraph) = fast.shape(text, whiteSpace: style.whiteSpace) else { continue }
                    if !paragraph.keptBreaks.isEmpty { searched += 1 }
                    for width in widths {
                        XCTAssertEqual(fast.layout(paragraph, width: width, style: style), slow.layout(paragraph, width: width, style: style), "\(width) px: \(text)")
                        compared += 1
                    }
                    // Several widths sharing one memory (the lines and breaks remembered between them) break alike too.
                    let memory = ParagraphMemory(paragraph)
                    for width in widths.reversed() {
                        XCTAssertEqual(fast.layout(paragraph, width: width, style: style, memory: memory), slow.layout(paragraph, width: width, style: style), "\(width) px, shared: \(text)")
                    }
                    XCTAssertEqual(fast.contentWidths(paragraph, style: style), slow.contentWidths(paragraph, style: style), text)
                }
            }
        }
        XCTAssertGreaterThan(compared, 30_000)
        XCTAssertGreaterThan(searched, 1_500)
    }
}

import CHarfBuzzShim
import Foundation
@testable import TrellisText
import TrellisTestSupport
import XCTest

/// Shaping word by word (Blink's rule: only where a face's lookups never involve the space glyph) must give every
/// scalar the advance and flags shaping each run whole gives it: the answers stay Chromium's.
final class WordShapingTests: XCTestCase {
    /// Words that kern, form ligatures, compose, carry marks, change script or sit next to several spaces.
    static let pool = [
        "office", "fluffy", "The", "AVATAR", "To", "Ta,", "\"quoted\"", "1/2", "1\u{2044}2", "café", "cafe\u{301}", "Wa.",
        "yT", "--", "fi", "ffl", "x\u{323}\u{301}", "(it)", "e.g.", "“Te”", "LT", "Vo", "P.", "f\"", "12:30", "a\u{200D}b",
        "αβγ", "Джон", "Ђорђе", "Հայաստան", "ქართული", "東京", "ひらがな", "カタカナ", "שלום", "مرحبا", "ـَ", "\u{301}",
        "x\u{FE0F}", "A\u{AD}B", "\u{200B}", "1", "25", "—", "\u{A0}", "ﬁ", "\u{2002}",
    ]

    /// Texts of 2 to 30 words from the pool, one, two or three spaces apart.
    static func texts(count: Int, seed: UInt64, from pool: [String] = pool) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            (0..<(2 + next(29))).map { _ in pool[next(pool.count)] }.reduce("") { text, word in
                text.isEmpty ? word : text + String(repeating: " ", count: 1 + next(3) / 2 + next(8) / 7) + word
            }
        }
    }

    func testParagraphsShapedWordByWordMatchTheirRunsShapedWhole() throws {
        for family in ["DejaVu Sans, IPAGothic", "DejaVu Serif, DejaVu Sans, IPAGothic", "DejaVu Sans Mono, DejaVu Sans, IPAGothic"] {
            let font = try XCTUnwrap(TestFonts.font(family, size: 16), family)
            let byWords = ParagraphShaper(font: font)
            let whole = ParagraphShaper(font: font)
            whole.shapesWordByWord = false
            var compared = 0
            for whiteSpace in [WhiteSpace.normal, .preWrap] {
                for text in Self.texts(count: 400, seed: 41) {
                    guard case .success(let shaped) = byWords.shape(text, whiteSpace: whiteSpace) else { continue }
                    guard case .success(let reference) = whole.shape(text, whiteSpace: whiteSpace) else {
                        XCTFail("\(family): \(text.debugDescription) shaped by words only")
                        continue
                    }
                    XCTAssertEqual(shaped.positions, reference.positions, "\(family) \(whiteSpace): \(text.debugDescription)")
                    XCTAssertEqual(shaped.unsafe, reference.unsafe, "\(family) \(whiteSpace): \(text.debugDescription)")
                    XCTAssertEqual(shaped.runCeilings, reference.runCeilings, "\(family) \(whiteSpace): \(text.debugDescription)")
                    compared += 1
                }
            }
            XCTAssertEqual(compared, 800, family)
            // The words were taken from those shaped before, not all shaped again.
            XCTAssertGreaterThan(byWords.wordsReused, 10_000, family)
            XCTAssertEqual(whole.wordsReused, 0, family)
        }
    }

    /// A face file's font at 16 px.
    private func font(_ path: String) throws -> (face: OpaquePointer, font: OpaquePointer) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let face = try XCTUnwrap(tfont_face_create(bytes, bytes.count, 0), path)
        let font = try XCTUnwrap(tfont_font_create(face, 16 << 16, nil, 0, nil, 0), path)
        return (face, font)
    }

    /// The pool's words that start a grapheme cluster (a mark after a space stays with it).
    static let words = pool.filter { word in
        guard let first = word.unicodeScalars.first, first != "\u{200D}" else { return false }
        return ![.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory)
    }

    /// How many of the texts give some scalar another advance or flag shaped word by word (each word and space on
    /// its own, with no context) than shaped whole, in Latin script.
    private func textsDiffering(_ font: OpaquePointer) -> Int {
        let latin = TextMeasurer.tag("Latn")
        var differing = 0
        for text in Self.texts(count: 300, seed: 7, from: Self.words) {
            let scalars = text.unicodeScalars.map(\.value)
            var advances = [Int64](repeating: 0, count: scalars.count), flags = [UInt8](repeating: 0, count: scalars.count)
            var alone = advances, aloneFlags = flags
            XCTAssertEqual(tfont_font_shape_clusters(font, scalars, scalars.count, 0, scalars.count, 0, latin, &advances, &flags), 0)
            var start = 0
            while start < scalars.count {
                var end = start + 1
                while end < scalars.count && scalars[end] != 0x20 && scalars[end - 1] != 0x20 { end += 1 }
                let word = Array(scalars[start..<end])
                var wordAdvances = [Int64](repeating: 0, count: word.count), wordFlags = [UInt8](repeating: 0, count: word.count)
                XCTAssertEqual(tfont_font_shape_clusters(font, word, word.count, 0, word.count, 0, latin, &wordAdvances, &wordFlags), 0)
                alone.replaceSubrange(start..<end, with: wordAdvances)
                aloneFlags.replaceSubrange(start..<end, with: wordFlags)
                start = end
            }
            aloneFlags[0] = flags[0]
            if advances != alone || flags != aloneFlags { differing += 1 }
        }
        return differing
    }

    /// The rule decides: DejaVu Sans passes it in Latin and its words shape alone as within runs; in Arabic it fails
    /// (a ligature of the space with Arabic marks); Roboto, which kerns with the space, fails it, and its words
    /// shaped apart do differ from its runs.
    func testOnlyFacesWhoseLookupsLeaveTheSpaceAloneShapeWordByWord() throws {
        let dejaVu = try font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        defer {
            tfont_font_destroy(dejaVu.font)
            tfont_face_destroy(dejaVu.face)
        }
        XCTAssertEqual(tfont_font_shapes_words_alone(dejaVu.font, TextMeasurer.tag("Latn")), 1)
        XCTAssertEqual(tfont_font_shapes_words_alone(dejaVu.font, TextMeasurer.common), 1)
        XCTAssertEqual(tfont_font_shapes_words_alone(dejaVu.font, TextMeasurer.tag("Arab")), 0)
        XCTAssertEqual(textsDiffering(dejaVu.font), 0)
        let roboto = try font("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Light.ttf")
        defer {
            tfont_font_destroy(roboto.font)
            tfont_face_destroy(roboto.face)
        }
        XCTAssertEqual(tfont_font_shapes_words_alone(roboto.font, TextMeasurer.tag("Latn")), 0)
        XCTAssertGreaterThan(textsDiffering(roboto.font), 0)
    }
}

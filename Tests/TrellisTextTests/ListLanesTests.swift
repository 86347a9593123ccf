import TrellisCore
@testable import TrellisText
import TrellisTestSupport
import XCTest

/// A large list is cut into parts, each laid out on whichever lane is free: the answer must be the one laid out on one
/// thread, in whatever order the parts are laid out, and where a part does not answer (a refusal, a bound) the list is laid out again on one
/// thread, so that the refusals are the same too.
final class ListLanesTests: XCTestCase {
    /// Lanes that run the parts one after the other on the caller's thread, first to last or last to first.
    struct InOrder: ComputeLanes {
        var reversed = false
        func run(_ parts: Int, _ body: (_ part: Int) -> Void) -> Bool {
            for part in 0..<parts { body(reversed ? parts - 1 - part : part) }
            return true
        }
    }

    /// Lanes that never have a thread free.
    struct Busy: ComputeLanes {
        func run(_ parts: Int, _ body: (_ part: Int) -> Void) -> Bool { false }
    }

    static let pieces = [
        "the quick brown fox", "jumps over", "a lazy dog", "明日のランチ", "مرحبا بالعالم", "well-known", "😀 👍🏽", "ABCD-1234",
        "supercalifragilisticexpialidocious", "x", "", "(see this)", "Ünïcödé façade", "שלום עולם",
    ]

    /// A list of `rows` rows of one to three paragraphs, some clamped, with every kind of chrome.
    static func input(
        rows: Int, seed: UInt64, widths: [Double], font: TextFont, refusing: Int? = nil, pieces: (Int) -> [String] = { _ in pieces }
    ) -> ListLayoutInput {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var texts: [String] = []
        var styles: [Int32] = []
        var list: [ListLayoutRow] = []
        for row in 0..<rows {
            for _ in 0..<(next(4)) {
                let words = pieces(row)
                var text = (0..<(1 + next(12))).map { _ in words[next(words.count)] }.joined(separator: " ")
                if row == refusing { text += "\u{1}" }
                texts.append(text)
                styles.append(Int32(next(3)))
            }
            list.append(ListLayoutRow(paragraphEnd: Int32(texts.count), chrome: Int32(next(3))))
        }
        return ListLayoutInput(
            font: font, styles: [ParagraphStyle(), ParagraphStyle(maxLines: 2, textOverflow: .ellipsis), ParagraphStyle(whiteSpace: .preWrap, overflowWrap: .anywhere)],
            paragraphs: texts, paragraphStyles: styles,
            chromes: [ListRowChrome(), ListRowChrome(top: 8, bottom: 8, leading: 12, trailing: 12, extraHeight: 22), ListRowChrome(leading: 40, minHeight: 64)],
            rows: list, paragraphGap: 4, gap: 8, widths: widths)
    }

    /// The first thing two answers say otherwise (nil when they say the same).
    static func difference(_ a: [String], _ b: [String]) -> String? {
        if a.count != b.count { return "\(a.count) against \(b.count) things said" }
        for (x, y) in zip(a, b) where x != y { return "\(x) against \(y)" }
        return nil
    }

    /// Everything the answer says, a row at each width at a time, and every refusal, in order, with the steps counted.
    static func answer(_ input: ListLayoutInput, lanes: (any ComputeLanes)?, cache: ShapingCache? = nil, inputBytes: Int = 1 << 22) -> ([String], Int) {
        var meter = WorkMeter(inputBytes: inputBytes)
        var said: [String] = []
        ListLayout.compute(input, cache: cache, lanes: lanes, meter: &meter) { result in
            switch result {
            case .success(let layout):
                said.append("\(layout.width): \(layout.total)")
                for row in 0..<layout.count {
                    said.append("\(layout.width) row \(row): \(layout.heights[row]) at \(layout.offsets[row]), \(layout.lineCount(ofRow: row)) lines, truncated \(layout.isTruncated(row: row))")
                }
            case .failure(let refusal):
                said.append("refused: \(refusal)")
            }
            return true
        }
        return (said, meter.steps)
    }

    func testASpreadListIsTheListLaidOutOnOneThread() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, IPAGothic, Noto Color Emoji", size: 15))
        for seed in [UInt64(1), 2, 3] {
            let input = Self.input(rows: 1_500, seed: seed, widths: [90, 240.5, 600], font: font)
            let (alone, steps) = Self.answer(input, lanes: nil)
            XCTAssertEqual(alone.count, 3 * 1_501)
            for lanes: any ComputeLanes in [InOrder(), InOrder(reversed: true), Busy()] {
                let (spread, spreadSteps) = Self.answer(input, lanes: lanes)
                XCTAssertNil(Self.difference(spread, alone), "\(lanes), seed \(seed)")
                XCTAssertEqual(spreadSteps, steps, "the same work counted")
            }
        }
    }

    /// A refusal in a later part: the list is laid out again on one thread and answers every refusal in order.
    func testARefusalInAPartIsAnsweredAsOnOneThread() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, IPAGothic, Noto Color Emoji", size: 15))
        let input = Self.input(rows: 1_500, seed: 9, widths: [300], font: font, refusing: 1_400)
        let (alone, _) = Self.answer(input, lanes: nil)
        XCTAssertTrue(alone.allSatisfy { $0.hasPrefix("refused") } && !alone.isEmpty, "\(alone.prefix(3))")
        XCTAssertNil(Self.difference(Self.answer(input, lanes: InOrder()).0, alone))
    }

    /// Lines past their bound, found in a part: the list is laid out again on one thread and refused as it refuses them.
    func testLinesPastTheirBoundInAPartAreRefusedAsOnOneThread() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, IPAGothic, Noto Color Emoji", size: 15))
        let input = Self.input(rows: 1_500, seed: 5, widths: [90, 240.5, 600], font: font)
        let lines = Self.answer(input, lanes: nil).0.compactMap { $0.split(separator: ",").dropFirst().first }
            .compactMap { Int($0.split(separator: " ")[0]) }.reduce(0, +)
        XCTAssertGreaterThan(lines, 10_000)
        // The bound, two lines a byte, a little under the lines the list makes.
        let (alone, _) = Self.answer(input, lanes: nil, inputBytes: lines / 2 - 10)
        XCTAssertEqual(alone.count, 1)
        XCTAssertTrue(alone.first?.contains("tooManyLines") ?? false, "\(alone)")
        XCTAssertEqual(Self.answer(input, lanes: InOrder(), inputBytes: lines / 2 - 10).0, alone)
    }

    /// The parts draw together on the request's quarter of the shaping cache: a list the quarter holds is kept whole,
    /// however its paragraphs fall into parts (here Latin rows, whose paragraphs keep about 30 bytes a byte of text,
    /// before Japanese ones, about 10: the parts are cut by bytes of text), and one it does not is kept up to the
    /// quarter, never past it.
    func testTheSpreadPartsKeepWhatTheRequestsShareHolds() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, IPAGothic, Noto Color Emoji", size: 15))
        let latin = ["the quick brown fox", "jumps over", "a lazy dog", "well-known", "(see this)"]
        let input = Self.input(rows: 1_500, seed: 4, widths: [300], font: font) { $0 < 750 ? latin : ["明日のランチ", "東京都庁", "ありがとう"] }
        let large = ShapingCache(byteCapacity: 1 << 30)
        let (kept, _) = Self.answer(input, lanes: nil, cache: large)
        let whole = large.bytes
        // A quarter a tenth larger than the list: every paragraph kept.
        let roomy = ShapingCache(byteCapacity: whole * 44 / 10)
        XCTAssertNil(Self.difference(Self.answer(input, lanes: InOrder(), cache: roomy).0, kept))
        XCTAssertEqual(roomy.count, large.count, "kept whole")
        XCTAssertNil(Self.difference(Self.answer(input, lanes: InOrder(), cache: roomy).0, kept), "the same from the kept paragraphs")
        // A quarter of half the list: kept up to it.
        let small = ShapingCache(byteCapacity: whole * 2)
        XCTAssertNil(Self.difference(Self.answer(input, lanes: InOrder(reversed: true), cache: small).0, kept))
        XCTAssertLessThanOrEqual(small.bytes, small.perRequestByteCapacity)
        XCTAssertGreaterThan(small.bytes, small.perRequestByteCapacity * 9 / 10)
    }
}

import CHarfBuzzShim
import Foundation
@testable import TrellisText
import TrellisCore
import TrellisTestSupport
import XCTest

/// ICU's line breaker runs once over a paragraph and again only from line starts it did not find: every line
/// start must still see exactly what ICU finds when it is run from that start over the rest of the text (the
/// rule Chromium's line breaker follows), in every script, ICU's dictionary scripts above all.
final class LineBoundariesTests: XCTestCase {
    /// Words of the scripts ICU breaks by dictionary, joined without spaces as their prose is.
    static let words: [[String]] = [
        "กรุงเทพ มหานคร เป็น เมือง หลวง ของ ประเทศ ไทย การ ตัด คำ ภาษา ต้อง ใช้ พจนานุกรม เขียน ติด กัน โดย ไม่ มี ช่องว่าง ระหว่าง สวัสดี ครับ ยินดี ต้อนรับ สู่ วันนี้ อากาศ ดี มาก เรา ไป เที่ยว ทะเล ข้าว ผัด กุ้ง หนึ่ง จาน และ น้ำ มะนาว ห้องน้ำ อยู่ ที่ ไหน",
        "ສະບາຍດີ ພາສາ ລາວ ປະເທດ ນະຄອນ ຫຼວງ ວຽງຈັນ ເປັນ ຂອງ ຂ້ອຍ ເຈົ້າ ໄປ ມາ ກິນ ເຂົ້າ ນ້ຳ ບ້ານ ໂຮງຮຽນ ນັກຮຽນ ຄູ ປຶ້ມ ອ່ານ ຂຽນ ມື້ນີ້ ອາກາດ ດີ ຫຼາຍ ແລະ ຢູ່ ໃສ",
        "សួស្តី ភាសា ខ្មែរ ប្រទេស កម្ពុជា រាជធានី ភ្នំពេញ ជា របស់ ខ្ញុំ អ្នក ទៅ មក ញ៉ាំ បាយ ទឹក ផ្ទះ សាលារៀន សិស្ស គ្រូ សៀវភៅ អាន សរសេរ ថ្ងៃនេះ អាកាសធាតុ ល្អ ណាស់ និង នៅ",
        "မင်္ဂလာပါ မြန်မာ ဘာသာ နိုင်ငံ ရန်ကုန် မြို့ တော် ဖြစ် သည် ကျွန်တော် သင် သွား လာ စား ထမင်း ရေ အိမ် ကျောင်း ကျောင်းသား ဆရာ စာအုပ် ဖတ် ရေး ဒီနေ့ ရာသီဥတု ကောင်း အရမ်း",
    ].map { $0.split(separator: " ").map(String.init) }
    static let others = ["a", "word", "-", "(", ")", "“", "”", "\"", ".", ",", "!", "?", "1", "25", "ๆ", "ฯ", "東京", "😀", "\u{200B}", "\u{A0}", "/", "—", "๐๑", "។", "၊", "ໆ", " ", " ", " "]
    static let letters: [ClosedRange<UInt32>] = [0x0E01...0x0E4E, 0x0E81...0x0EDD, 0x1780...0x17DD, 0x1000...0x109F]

    /// Texts of each dictionary script: words with spaces, punctuation, digits and other scripts between them, and
    /// words run into random letters of the script (which ICU's dictionaries take their slowest path through).
    static func generated() -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var texts: [String] = []
        for script in 0..<4 {
            for _ in 0..<40 {
                var text = ""
                for _ in 0..<(5 + next(60)) {
                    switch next(10) {
                    case 0..<7: text += words[script][next(words[script].count)]
                    case 7: text += others[next(others.count)]
                    case 8: text += words[next(4)][next(10)]
                    default:
                        let range = letters[script]
                        for _ in 0..<(1 + next(10)) {
                            text.unicodeScalars.append(Unicode.Scalar(range.lowerBound + UInt32(next(Int(range.upperBound - range.lowerBound)))) ?? "x")
                        }
                    }
                }
                texts.append(text)
            }
            // Phrases of a few words, one space apart, as such prose is written.
            for _ in 0..<20 {
                texts.append((0..<(3 + next(20))).map { _ in (0..<(1 + next(5))).map { _ in words[script][next(words[script].count)] }.joined() }
                    .joined(separator: " "))
            }
        }
        return texts
    }

    /// The fixtures' paragraphs (every script Chromium was checked in).
    static func fixtureTexts() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/paragraphs.jsonl")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String
        }
    }

    static func boundaries(_ text: [UInt32]) -> LineBoundaries {
        var classes = [UInt8](repeating: 0, count: text.count)
        var bits = [UInt8](repeating: 0, count: text.count)
        var levels = [UInt8](repeating: 0, count: text.count)
        var starts = [UInt8](repeating: 0, count: text.count)
        var scripts = [UInt32](repeating: 0, count: text.count)
        tfont_char_classes(text, text.count, &classes, &bits)
        _ = tfont_analyze(text, text.count, &levels, &starts, &scripts)
        return LineBoundaries(scalars: text, lineBreakClasses: classes, scripts: TextMeasurer.resolveScripts(scripts, text))
    }

    /// ICU run from `start` over the rest of the text: 1 before each scalar where it finds a boundary.
    static func reference(_ text: [UInt32], from start: Int) -> [UInt8] {
        var found = [UInt8](repeating: 0, count: text.count - start)
        XCTAssertEqual(tfont_line_boundaries(text, start, text.count, &found), 0)
        return found
    }

    /// Every line start of every text sees ICU's boundaries as ICU run from there finds them, whether the line asks
    /// about a few positions or many, and whether or not an earlier line start's boundaries are at hand.
    func testEveryLineStartSeesWhatICURunFromThereFinds() throws {
        var texts = Self.generated()
        texts += try Self.fixtureTexts().enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        var checked = 0
        var restarted = 0
        for text in texts {
            let scalars = text.unicodeScalars.map(\.value)
            guard scalars.count > 2 else { continue }
            let boundaries = Self.boundaries(scalars)
            var previous: LineBoundaries.View?
            for start in 1..<scalars.count {
                let expected = Self.reference(scalars, from: start)
                // Lines reach a few positions past their start (as narrow ones do), then further as they ask.
                let reach = [start + 1 + start % 7, start + 60 + start % 50, start + 3 + start % 13][start % 3]
                guard var view = boundaries.view(from: start, after: previous, reach: reach) else {
                    return XCTFail("ICU failed")
                }
                for i in (start + 1)..<scalars.count {
                    if view.isBoundary(i) == nil, let extended = boundaries.extended(view, to: i) { view = extended }
                    let found = view.isBoundary(i)
                    if found != (expected[i - start] != 0) {
                        return XCTFail("from \(start), at \(i): \(String(describing: found)) in \(text)")
                    }
                    checked += 1
                }
                if view.origin != start || view.meet != start { restarted += 1 }
                // The next line starts at one of these boundaries (or elsewhere, when a word was cut).
                previous = view
            }
        }
        XCTAssertGreaterThan(checked, 1_000_000)
        XCTAssertGreaterThan(restarted, 1_000, "line starts ICU did not find were run from again")
    }

    /// A line start where ICU run from another line's start (another width's) finds a boundary, and the whole text's
    /// run does not, sees what that run found: ICU is not run again from it, and what it sees is what ICU run from
    /// there finds.
    func testALineStartAnotherRunFoundIsNotRunFromAgain() throws {
        let scalars = String(repeating: Self.words[0].joined(), count: 3).unicodeScalars.map(\.value)
        let whole = Self.reference(scalars, from: 0)
        var shared = 0
        for origin in stride(from: 1, to: scalars.count - 40, by: 1) where whole[origin] == 0 {
            let own = Self.reference(scalars, from: origin)
            // The first boundary of the run from `origin` that is not one of the whole text's.
            guard let found = (origin + 1..<origin + 8).first(where: { own[$0 - origin] != 0 && whole[$0] == 0 }) else { continue }
            let boundaries = Self.boundaries(scalars)
            let reach = found + 3
            XCTAssertNotNil(boundaries.view(from: origin, after: nil, reach: reach))
            let runs = boundaries.restarts
            let view = try XCTUnwrap(boundaries.view(from: found, after: nil, reach: reach))
            XCTAssertEqual(boundaries.restarts, runs, "from \(found), found by the run from \(origin)")
            let expected = Self.reference(scalars, from: found)
            for i in (found + 1)...reach { XCTAssertEqual(view.isBoundary(i), expected[i - found] != 0, "from \(found), at \(i)") }
            shared += 1
        }
        XCTAssertGreaterThan(shared, 20)
    }

    /// ICU runs over a paragraph once, whatever the widths and lines: at 16 narrow widths clamped to one line, a
    /// Thai paragraph of about 1,000 scalars costs about one pass of its line breaker.
    func testICURunsOnceOverAParagraphAtEveryWidth() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, Garuda", size: 16))
        let text = String(repeating: Self.words[0].joined(), count: 4)
        let input = TextLayoutInput(
            font: font, texts: [text], widths: (0..<16).map { 50 + Double($0) }, style: ParagraphStyle(maxLines: 1),
            contentWidths: true)
        var meter = WorkMeter()
        var lineCount = 0
        TextLayout.compute(input, meter: &meter) { _, result in
            if case .success(let output) = result { lineCount = output.layouts[0].lineCount }
            return true
        }
        let scalars = text.unicodeScalars.count
        XCTAssertGreaterThan(lineCount, 100)
        let breaking = meter.steps - scalars * (1 + 16 + 1)
        XCTAssertGreaterThanOrEqual(breaking, scalars, "ICU's pass over the text is counted")
        XCTAssertLessThanOrEqual(breaking, 2 * scalars, "ICU ran about once over the text, not from every line start")
    }

    /// A paragraph laid out at many widths at once (sharing ICU's boundaries, the edges shaped again and the last
    /// width's breaks) is laid out at each exactly as at that width alone.
    func testEveryWidthOfARequestIsLaidOutAsThatWidthAlone() throws {
        let font = try XCTUnwrap(TestFonts.font("DejaVu Sans, Garuda, IPAGothic, NanumBarunGothic, Noto Color Emoji", size: 16))
        let shaper = ParagraphShaper(font: font)
        var texts = Self.generated().enumerated().filter { $0.offset < 80 }.map(\.element)
        texts += try Self.fixtureTexts().enumerated().filter { $0.offset % 40 == 0 }.map(\.element)
        let widths: [Double] = [50, 1, 1.5, 3, 20, 20.25, 21, 35, 50, 50.5, 65, 400, 90, 120, 7, 1e6]
        let styles = [
            ParagraphStyle(maxLines: 1, textOverflow: .ellipsis), ParagraphStyle(overflowWrap: .anywhere, maxLines: 2),
            ParagraphStyle(overflowWrap: .breakWord), ParagraphStyle(wordBreak: .breakAll, maxLines: 3, textOverflow: .ellipsis),
            ParagraphStyle(wordBreak: .keepAll), ParagraphStyle(whiteSpace: .preWrap, overflowWrap: .anywhere),
        ]
        var compared = 0
        for text in texts {
            for style in styles {
                guard case .success(let paragraph) = shaper.shape(text, whiteSpace: style.whiteSpace) else { continue }
                let input = TextLayoutInput(font: font, texts: [text], widths: widths, style: style, contentWidths: true)
                var meter = WorkMeter()
                var output: TextLayoutOutput?
                TextLayout.compute(input, meter: &meter) { _, result in
                    if case .success(let laidOut) = result { output = laidOut }
                    return true
                }
                let together = try XCTUnwrap(output)
                for (k, width) in widths.enumerated() {
                    XCTAssertEqual(together.layouts[k], shaper.layout(paragraph, width: width, style: style), "\(width) px: \(text)")
                    compared += 1
                }
                XCTAssertEqual(together.contentWidths, shaper.contentWidths(paragraph, style: style), text)
            }
        }
        XCTAssertGreaterThan(compared, 5_000)
    }
}

import Foundation
import TrellisServer
import TrellisHTTP
import TrellisCore
import TrellisText
import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Requests that are valid and small per byte but used to cost far more than a normal request of the
/// same endpoint: each is answered within the cost model (docs/limits.md). Work is compared as the
/// steps the endpoints count (`trellis_compute_steps_total`), never as time.
final class HostileCostTests: HostileTestCase {
    private func server(budget: Int? = nil, timeout: Duration? = nil, cache: MeasureCache = MeasureCache()) throws -> LiveServer {
        try LiveServer(
            http: HTTPServerConfiguration(threads: 2, maxBodyBytes: 16 << 20),
            service: ServiceConfiguration(
                memoryBudget: budget.flatMap { HTTPMemoryBudget(limit: $0) }, context: FeatureContext(fonts: TestFonts.collection, measureCache: cache),
                requestTimeout: timeout))
    }

    /// The steps counted for `path` by the request `body`, from the metrics before and after it.
    private func steps(_ server: LiveServer, _ path: String, _ body: String, status: Int = 200,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        func total() throws -> Int {
            let metrics = try server.request("GET", "/metrics").text
            let prefix = #"trellis_compute_steps_total{route="\#(path)"} "#
            return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }
        let before = try total()
        let response = try Hostile.post(server, path, body)
        XCTAssertEqual(response.status, status, String(response.text.prefix(300)), file: file, line: line)
        return try total() - before
    }

    private func pointers(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
    }

    // MARK: Text shaping

    /// Long grapheme clusters made shaping quadratic in their length: past 32 scalars one is a 422 that
    /// names where it starts, before anything is shaped.
    func testAGraphemeClusterOfMoreThanThirtyTwoScalarsIsRefused() throws {
        let server = try server()
        let marks = String(repeating: "\u{301}\u{323}", count: 498)
        let font = #""font":{"family":"DejaVu Serif, DejaVu Sans Mono, DejaVu Sans","size":16}"#
        let measured = try Hostile.post(server, "/v1/text/measure", #"{\#(font),"texts":["ok","xa\#(marks)\#u{20D0}"]}"#)
        assertProblem(measured, 422)
        XCTAssertEqual(pointers(measured), ["/texts/1"])
        XCTAssertTrue(measured.text.contains("grapheme cluster of 998 Unicode scalars at scalar 1"), measured.text)
        let flow = try Hostile.post(
            server, "/v1/flow/layout", #"{"containerWidth":300,\#(font),"items":[{"text":"a\#(marks)"}]}"#)
        assertProblem(flow, 422)
        XCTAssertEqual(pointers(flow), ["/items/0/text"])
        // Thirty-two scalars are one measurable cluster.
        let fits = try Hostile.post(
            server, "/v1/text/measure", #"{\#(font),"texts":["a\#(String(repeating: "\u{301}\u{323}", count: 15))\#u{20D0}"]}"#)
        XCTAssertEqual(fits.status, 200, fits.text)
    }

    /// One request's labels may fill only a share of the shared measure cache, so they cannot push out
    /// what other clients measured.
    func testOneRequestCannotFlushTheSharedMeasureCache() throws {
        let cache = MeasureCache(capacity: 1_600, byteCapacity: 1 << 20)
        let server = try server(cache: cache)
        let font = #""font":{"family":"DejaVu Sans","size":16}"#
        let mine = (0..<50).map { "\"mine \($0)\"" }.joined(separator: ",")
        XCTAssertEqual(try Hostile.post(server, "/v1/text/measure", #"{\#(font),"texts":[\#(mine)]}"#).status, 200)
        let kept = try steps(server, "/v1/text/measure", #"{\#(font),"texts":[\#(mine)]}"#)
        XCTAssertEqual(kept, 0, "measured labels are answered from the cache")
        let flood = (0..<5_000).map { "\"flood \($0)\"" }.joined(separator: ",")
        XCTAssertEqual(try Hostile.post(server, "/v1/text/measure", #"{\#(font),"texts":[\#(flood)]}"#).status, 200)
        XCTAssertLessThanOrEqual(cache.count, 50 + cache.perRequestCapacity)
        XCTAssertEqual(try steps(server, "/v1/text/measure", #"{\#(font),"texts":[\#(mine)]}"#), 0, "still cached after the flood")
    }

    // MARK: Paragraph layout

    /// Thai prose (ICU breaks Thai and Lao by dictionary, so its line breaker is a dictionary search), as texts of
    /// 1,000 scalars.
    private static func dictionaryProse(_ words: String, texts: Int) -> [String] {
        let vocabulary = words.split(separator: " ").map(String.init)
        var state: UInt64 = 7
        return (0..<texts).map { _ in
            var text = ""
            var count = 0
            while text.unicodeScalars.count < 1_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += vocabulary[Int(state >> 33) % vocabulary.count] + (count % 6 == 5 ? " " : "")
                count += 1
            }
            return String(String.UnicodeScalarView(text.unicodeScalars.prefix(1_000)))
        }
    }

    private static let thai = dictionaryProse(
        "กรุงเทพ มหานคร เป็น เมือง หลวง ของ ประเทศ ไทย การ ตัด คำ ภาษา ต้อง ใช้ พจนานุกรม เขียน ติด กัน โดย ไม่ มี ช่องว่าง ระหว่าง สวัสดี ครับ ยินดี ต้อนรับ สู่ วันนี้ อากาศ ดี มาก เรา ไป เที่ยว ทะเล",
        texts: 20)
    private static let lao = dictionaryProse(
        "ສະບາຍດີ ພາສາ ລາວ ປະເທດ ນະຄອນ ຫຼວງ ວຽງຈັນ ເປັນ ຂອງ ຂ້ອຍ ເຈົ້າ ໄປ ມາ ກິນ ເຂົ້າ ນ້ຳ ບ້ານ ໂຮງຮຽນ ນັກຮຽນ ຄູ ປຶ້ມ ອ່ານ ຂຽນ ມື້ນີ້ ອາກາດ ດີ",
        texts: 20)

    private static func quoted(_ texts: [String]) -> String { texts.map { "\"\($0)\"" }.joined(separator: ",") }

    /// Thai and Lao at 16 narrow widths clamped to one line (and with their content widths) used to run ICU's
    /// dictionary from every line start at every width, uncounted: 13–31 × a normal request's CPU. ICU's work is
    /// now counted, a step per scalar it runs over, and it is about one pass over each text, however many widths
    /// and lines: the steps are the shaping and a scan per width, plus at most about two passes of the line breaker.
    func testDictionaryScriptsAtManyWidthsCountAboutOnePassOfTheLineBreaker() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans, Garuda","size":16}"#
        let narrow = (0..<16).map { "\(50 + $0)" }.joined(separator: ",")
        for texts in [Self.thai, Self.lao] {
            let scalars = texts.map(\.unicodeScalars.count).reduce(0, +)
            let requests: [(String, Int)] = [
                (#""widths":[\#(Array(repeating: "50", count: 16).joined(separator: ","))],"maxLines":1"#, 16),
                (#""widths":[\#(narrow)],"maxLines":1,"textOverflow":"ellipsis""#, 16),
                (#""widths":[\#(narrow)],"maxLines":1,"contentWidths":true"#, 17),
                (#""width":60,"maxLines":2,"overflowWrap":"anywhere""#, 1),
            ]
            for (members, layouts) in requests {
                let counted = try steps(server, "/v1/text/layout", #"{\#(font),"texts":[\#(Self.quoted(texts))],\#(members)}"#)
                let breaking = counted - scalars * (1 + layouts)
                XCTAssertGreaterThanOrEqual(breaking, scalars, "ICU's pass is counted: \(members)")
                XCTAssertLessThanOrEqual(breaking, 2 * scalars, "about one pass of ICU: \(members)")
            }
        }
    }

    /// Once a text is refused, the texts after it are only shaped to find their own refusals, not laid out at
    /// every width: a refused request costs about one shaping of its texts.
    func testTextsAfterARefusedOneAreNotLaidOut() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans, Garuda","size":16}"#
        let widths = (0..<16).map { "\(20 + $0)" }.joined(separator: ",")
        let texts = ["a\\u0001b"] + Self.thai
        let scalars = texts.map(\.unicodeScalars.count).reduce(0, +)
        let counted = try steps(
            server, "/v1/text/layout", #"{\#(font),"texts":[\#(Self.quoted(texts))],"widths":[\#(widths)],"overflowWrap":"break-word"}"#,
            status: 422)
        XCTAssertLessThanOrEqual(counted, 2 * scalars, "one shaping of each text, none laid out")
    }

    /// A text no face covers (an emoji newer than the fonts) after texts that lay out at 16 narrow widths was found
    /// only once all of them had been laid out, for an answer thrown away: a 422 of a few hundred bytes that cost a
    /// whole request's layout. Every text is checked before any is shaped, so the refusal costs one check of each.
    func testATextRefusedLastLaysOutNoTextBeforeIt() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans, Garuda","size":16}"#
        let widths = (0..<16).map { "\(20 + $0)" }.joined(separator: ",")
        let english = (0..<20).map { i in (0..<150).map { "word\(i * 150 + $0)" }.joined(separator: " ").unicodeScalars.prefix(1_000) }
            .map { String(String.UnicodeScalarView($0)) }
        for texts in [Self.thai, english] {
            let refused = texts + ["\u{1FAE8}"]
            let scalars = refused.map(\.unicodeScalars.count).reduce(0, +)
            let body = #"{\#(font),"texts":[\#(Self.quoted(refused))],"widths":[\#(widths)],"overflowWrap":"break-word","maxLines":1}"#
            let answer = try Hostile.post(server, "/v1/text/layout", body)
            assertProblem(answer, 422)
            XCTAssertEqual(pointers(answer), ["/texts/\(texts.count)"])
            XCTAssertTrue(answer.text.contains("U+1FAE8"), answer.text)
            let counted = try steps(server, "/v1/text/layout", body, status: 422)
            XCTAssertLessThanOrEqual(counted, scalars, "one check of each text, none shaped or laid out")
        }
    }

    /// Flow chips with Thai labels cut at a maximum width, and a batch of 100 Thai layouts, count their line
    /// breaking too, about one pass over each label or text (a chip's label twice: it is laid out when the flow is
    /// measured and again when its lines are written, each time shaped and broken).
    func testThaiChipsAndBatchesCountAboutOnePassOfTheLineBreaker() throws {
        let server = try server()
        let labels = Self.thai.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(300))) }
        let scalars = labels.map(\.unicodeScalars.count).reduce(0, +)
        let items = labels.map { #"{"text":"\#($0)","maxWidth":60,"maxLines":1000}"# }.joined(separator: ",")
        let chips = try steps(
            server, "/v1/flow/layout", #"{"containerWidth":320,"font":{"family":"DejaVu Sans, Garuda","size":16},"items":[\#(items)]}"#)
        XCTAssertGreaterThanOrEqual(chips - 4 * scalars, 2 * scalars, "ICU's pass is counted at each layout")
        XCTAssertLessThanOrEqual(chips - 4 * scalars, 2 * (2 * scalars + 8 * labels.count), "about one pass of ICU at each layout")

        let entry = #"{"path":"/v1/text/layout","body":{"font":{"family":"DejaVu Sans, Garuda","size":16},"texts":["\#(Self.thai[0])"],"widths":[\#(Array(repeating: "50", count: 16).joined(separator: ","))],"maxLines":1}}"#
        let batch = try steps(server, "/v1/batch", #"{"requests":[\#(Array(repeating: entry, count: 100).joined(separator: ","))]}"#)
        let alone = try steps(server, "/v1/text/layout", #"{"font":{"family":"DejaVu Sans, Garuda","size":16},"texts":["\#(Self.thai[0])"],"widths":[\#(Array(repeating: "50", count: 16).joined(separator: ","))],"maxLines":1}"#)
        let text = Self.thai[0].unicodeScalars.count
        XCTAssertEqual(batch, 100 * alone, "each entry counts as if sent alone")
        XCTAssertGreaterThanOrEqual(alone - 17 * text, text, "ICU's pass is counted")
        XCTAssertLessThanOrEqual(alone - 17 * text, 2 * text, "about one pass of ICU")
    }

    // MARK: Virtual lists

    /// A chat's rows, `count` of them, in padded bubbles.
    private func chatRows(_ count: Int) -> String {
        (0..<count).map { i in
            let words = (0..<(6 + i % 9)).map { "word\(i * 31 + $0)" }.joined(separator: " ")
            return #"{"key":"m\#(i)","texts":["\#(words)"],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12}}"#
        }.joined(separator: ",")
    }

    /// Rows far narrower than their text at sixteen widths made a line of every grapheme at every width, 8 × a normal
    /// chat's CPU per byte: their lines are bounded by the body (2 per byte), so the request is refused at its widths
    /// having laid out at most as many rows as a normal request at sixteen ordinary widths.
    func testNarrowRowsAtManyWidthsStopAtTheirLines() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans","size":15}"#
        let rows = chatRows(300)
        let ordinary = (0..<16).map { "\(200 + 40 * $0)" }.joined(separator: ",")
        let narrow = (0..<16).map { "\(1 + Double($0) / 16)" }.joined(separator: ",")
        let normal = try steps(server, "/v1/list/layout", #"{\#(font),"widths":[\#(ordinary)],"rows":[\#(rows)]}"#)
        let refused = try Hostile.post(server, "/v1/list/layout", #"{\#(font),"widths":[\#(narrow)],"overflowWrap":"anywhere","rows":[\#(rows)]}"#)
        assertProblem(refused, 422)
        XCTAssertEqual(pointers(refused), ["/widths"])
        let crafted = try steps(server, "/v1/list/layout", #"{\#(font),"widths":[\#(narrow)],"overflowWrap":"anywhere","rows":[\#(rows)]}"#, status: 422)
        XCTAssertLessThan(crafted, normal, "refused before every row was laid out at every width")
    }

    /// Each row with text keeps its height and lines for every width until the answer is written: rows of one letter
    /// at sixteen widths took 22 bytes of memory per body byte; past one row-width per 2 body bytes the request is
    /// refused at its widths, having laid out a fraction of its rows.
    func testRowsOfOneLetterAtManyWidthsAreRefusedForTheirMemory() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans","size":15}"#
        let rows = (0..<2000).map { #"{"texts":["\#(Character(Unicode.Scalar(97 + $0 % 26)!))"]}"# }.joined(separator: ",")
        let sixteen = (0..<16).map { "\(200 + 40 * $0)" }.joined(separator: ",")
        let body = #"{\#(font),"widths":[\#(sixteen)],"rows":[\#(rows)]}"#
        // Rows of 17 bytes: at 2 bytes a row-width, the first half of them fit 16 widths.
        let all = 2000 * 17
        let crafted = try steps(server, "/v1/list/layout", body, status: 422)
        XCTAssertLessThan(crafted, all * 11 / 20, "refused once the rows kept pass the body's share")
        XCTAssertEqual(pointers(try Hostile.post(server, "/v1/list/layout", body)), ["/widths"])
    }

    // MARK: Outline search

    /// A searched label is at most 4,096 bytes, like an id: longer is a 422 at its pointer.
    func testASearchedLabelLongerThanFourKilobytesIsRefused() throws {
        let server = try server()
        for path in ["/v1/outline/rows", "/v1/outline/expansion"] {
            let long = String(repeating: "f", count: 4096) + "é"
            let refused = try Hostile.post(
                server, path, #"{"nodes":[{"id":1,"label":"ok"},{"id":2,"label":"\#(long)"}],"search":{"query":"f"}}"#)
            assertProblem(refused, 422)
            XCTAssertEqual(pointers(refused), ["/nodes/1/label"], path)
            let fits = String(repeating: "f", count: 4094) + "é"
            let answered = try Hostile.post(server, path, #"{"nodes":[{"id":2,"label":"\#(fits)"}],"search":{"query":"f"}}"#)
            XCTAssertEqual(answered.status, 200, path)
            // Without a search, labels are not read at all.
            XCTAssertEqual(try Hostile.post(server, path, #"{"nodes":[{"id":2,"label":"\#(long)"}]}"#).status, 200, path)
        }
    }

    /// Terms that fold into one another (ﬀ is "ff") or nest (f, ff, fff, …) are found in one pass over a label,
    /// whatever their nesting: a words query of twenty nested terms costs about what a one-word query costs over
    /// the same labels.
    func testNestedFoldedTermsCostAboutWhatOneTermCosts() throws {
        let server = try server()
        let label = String(repeating: "f", count: 4093) + "é"
        let nodes = (0..<40).map { #"{"id":\#($0),"label":"\#(label)"}"# }.joined(separator: ",")
        let folded = (1...20).map { String(repeating: "\u{FB00}", count: $0) }.joined(separator: " ") + " é"
        let nested = (1...21).map { String(repeating: "f", count: $0) }.joined(separator: " ") + " é"
        for path in ["/v1/outline/rows", "/v1/outline/expansion"] {
            let plain = try steps(server, path, #"{"nodes":[\#(nodes)],"search":{"query":"f","mode":"words"}}"#)
            XCTAssertGreaterThan(plain, 40 * 4094, path)
            for query in [folded, nested] {
                let crafted = try steps(server, path, #"{"nodes":[\#(nodes)],"search":{"query":"\#(query)","mode":"words"}}"#)
                XCTAssertLessThanOrEqual(Double(crafted), 3 * Double(plain), "\(path): \(crafted) steps against \(plain)")
            }
        }
    }

    // MARK: Drawer

    /// A spring that rings for most of a minute at 240 frames/s asked for 13,000 keyframes from 150 bytes, and a body
    /// padded to 16 KB once bought 16 more per byte: 10 × a normal request's CPU for 7 KB. A transition's keyframes
    /// and easing samples are bounded per request, whatever its size.
    func testASlowSpringAsksForNoMoreWorkThanAnyRequestMay() throws {
        let server = try server()
        let slow = #""action":"toggle","container":{"width":390,"height":844},"frameRate":240,"spring":{"response":0.5,"dampingFraction":0.01}"#
        let overdamped = #""action":"toggle","container":{"width":390,"height":844},"frameRate":240,"spring":{"response":2.0,"dampingFraction":3.0}"#
        for body in [slow, overdamped] {
            for padding in ["", #","note":"\#(String(repeating: "x", count: 16_000))""#] {
                let refused = try Hostile.post(server, "/v1/drawer/state", "{\(body)\(padding)}")
                assertProblem(refused, 422)
                XCTAssertEqual(pointers(refused), ["/spring"])
                XCTAssertLessThan(refused.body.count, 1024)
                XCTAssertTrue(refused.text.contains("may ask for at most \(DrawerLimits.maxWork)"), refused.text)
            }
        }
        // The default spring's transition is well within the allowance.
        let normal = try steps(server, "/v1/drawer/state", #"{"action":"toggle","container":{"width":390,"height":844}}"#)
        XCTAssertLessThan(normal, DrawerLimits.maxWork / 4)
    }

    /// The CSS easing was sampled every millisecond of its duration, so a slow overdamped spring cost 6,000 samples for
    /// 18 stops and was refused. Its samples now follow the curve's bends: the same spring 100 times slower costs the
    /// same but for its keyframes, and the heaviest springs SwiftUI users send at 240 frames/s are within the allowance.
    func testTheEasingCostsWhatItsBendsNeedNotItsDuration() throws {
        let server = try server()
        func body(_ response: Double, _ dampingFraction: Double, frameRate: Double) -> String {
            #"{"action":"toggle","container":{"width":390,"height":844},"frameRate":\#(frameRate),"spring":{"response":\#(response),"dampingFraction":\#(dampingFraction)}}"#
        }
        for dampingFraction in [0.2, 1, 2.5] {
            let fast = DrawerSpringMotion(spring: DrawerSpring(response: 0.1, dampingFraction: dampingFraction))
            let slow = DrawerSpringMotion(spring: DrawerSpring(response: 10, dampingFraction: dampingFraction))
            XCTAssertGreaterThan(slow.settlingDuration(), 10)
            let fastSteps = try steps(server, "/v1/drawer/state", body(0.1, dampingFraction, frameRate: 1))
            let slowSteps = try steps(server, "/v1/drawer/state", body(10, dampingFraction, frameRate: 1))
            let extraKeyframes = slow.keyframes(frameRate: 1).count - fast.keyframes(frameRate: 1).count
            XCTAssertLessThanOrEqual(abs(slowSteps - fastSteps - extraKeyframes), 2, "ζ=\(dampingFraction): \(fastSteps) and \(slowSteps) steps")
        }
        for (response, dampingFraction) in [(1.5, 2.5), (1.5, 0.2), (1.0, 2.5)] {
            let counted = try steps(server, "/v1/drawer/state", body(response, dampingFraction, frameRate: 240))
            XCTAssertLessThanOrEqual(counted, DrawerLimits.maxWork)
        }
    }

    /// A start too fast for the limits is refused once its easing has made the most samples its keyframes leave, and
    /// the same spring is then planned from rest to know whether the start or the spring is to blame: two plans'
    /// work, about twice the heaviest transition answered, which the meter never saw (neither the deadline's checks
    /// nor `trellis_compute_steps_total`). Both plans count, and together they stay within two plans' allowance.
    func testARefusalBlamedOnItsStartCountsBothPlans() throws {
        let server = try server()
        let spring = DrawerSpring(response: 0.05, dampingFraction: 0.03)
        let start = DrawerSpringMotion(spring: spring, fromX: -200, toX: 0, start: DrawerMotionStart(x: -200, velocity: 20_000))
        guard case .failure(let violation) = DrawerMotionPlan.make(start, frameRate: 1),
              case .success(let atRest) = DrawerMotionPlan.make(DrawerSpringMotion(spring: spring), frameRate: 1)
        else { return XCTFail("the start should break the limits and the spring from rest keep to them") }
        XCTAssertGreaterThan(violation.work, DrawerLimits.maxWork * 9 / 10)
        XCTAssertGreaterThan(atRest.work, DrawerLimits.maxWork * 9 / 10)

        let body = #"{"action":"toggle","container":{"width":390,"height":844},"frameRate":1,"#
            + #""spring":{"response":0.05,"dampingFraction":0.03},"from":{"x":-200,"velocity":20000}}"#
        let refused = try Hostile.post(server, "/v1/drawer/state", body)
        assertProblem(refused, 422)
        XCTAssertEqual(pointers(refused), ["/from"])
        let counted = try steps(server, "/v1/drawer/state", body, status: 422)
        XCTAssertEqual(counted, violation.work + atRest.work)
        XCTAssertLessThanOrEqual(counted, 2 * DrawerLimits.maxWork)
    }

    // MARK: Sections

    /// Each action is one step, whatever the number of sections (collapseAll in single mode used to walk them all).
    func testSectionsActionsCostOneStepEach() throws {
        let server = try server()
        let sections = (0..<10_000).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        for (mode, action) in [("single", #"{"type":"collapseAll"}"#), ("multiple", #"{"type":"expandAll"}"#)] {
            let actions = Array(repeating: action, count: 10_000).joined(separator: ",")
            let counted = try steps(
                server, "/v1/sections/toggle", #"{"sections":[\#(sections)],"mode":"\#(mode)","expanded":[5],"actions":[\#(actions)]}"#)
            XCTAssertEqual(counted, 10_000, mode)
        }
    }

    // MARK: Batch

    /// An entry that passes its own answer bound stops computing there, as it does alone, and is taken back: a batch
    /// of such entries, behind an entry whose large answer grew the batch's buffer, costs what they cost alone. (They
    /// used to go on computing and writing up to the end of that buffer, up to the batch's whole bound each, before
    /// being taken back.)
    func testEntriesPastTheirOwnBoundCostInABatchWhatTheyCostAlone() throws {
        let server = try server()
        let font = #""font":{"family":"DejaVu Sans","size":16}"#
        // Each text is about 100 KB of lines at these widths; forty of them pass 16 × the body + 1 MiB after about fourteen.
        let texts = (0..<40).map { t in "\"" + (0..<90).map { "w\(t)x\($0)" }.joined(separator: " ") + "\"" }.joined(separator: ",")
        let widths = (1...16).map(String.init).joined(separator: ",")
        let layout = #"{\#(font),"texts":[\#(texts)],"widths":[\#(widths)]}"#
        let alone = try steps(server, "/v1/text/layout", layout, status: 422)
        XCTAssertGreaterThan(alone, 0)
        // A kept answer of about 4.3 MB first: the buffer has grown to 8 MiB, far past each later entry's own bound.
        let flow = Hostile.largeFlowBody(bytes: 1_250_000)
        let entries = 4
        let body = #"{"requests":[{"path":"/v1/flow/layout","body":\#(flow)}"#
            + String(repeating: #",{"path":"/v1/text/layout","body":\#(layout)}"#, count: entries) + "]}"
        func counted(_ name: String, _ labels: String) throws -> Int {
            let prefix = "\(name){\(labels)} "
            return try server.request("GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
                .flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }
        let layoutRoute = #"route="/v1/text/layout""#
        let stepsBefore = try counted("trellis_compute_steps_total", layoutRoute)
        let refusedBefore = try counted("trellis_requests_total", layoutRoute + #",method="POST",status="422""#)
        let response = try Hostile.post(server, "/v1/batch", body)
        XCTAssertEqual(response.status, 200, String(response.text.prefix(300)))
        XCTAssertEqual(try counted("trellis_requests_total", layoutRoute + #",method="POST",status="422""#) - refusedBefore, entries)
        let batchSteps = try counted("trellis_compute_steps_total", layoutRoute) - stepsBefore
        XCTAssertEqual(batchSteps, entries * alone, "\(batchSteps) steps against \(entries) × \(alone)")
    }

    // MARK: Working memory and the deadline

    /// Computing an answer takes memory in proportion to the body, reserved from the budget before the body is
    /// parsed: past the budget the request is a 503 and nothing stays reserved.
    func testWorkingMemoryIsTakenFromTheBudgetBeforeParsing() throws {
        let body = Hostile.largeFlowBody(bytes: 400_000)
        let tight = try server(budget: 4 << 20)
        let refused = try Hostile.post(tight, "/v1/flow/layout", body)
        assertProblem(refused, 503)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertTrue(refused.text.contains("short of memory"), refused.text)
        assertNoRequestsLeft(tight)
        XCTAssertEqual(tight.service.configuration.memoryBudget?.inUse, 0)
        // The same request within a budget that holds its body, working memory and answer.
        let roomy = try server(budget: 16 << 20)
        XCTAssertEqual(try Hostile.post(roomy, "/v1/flow/layout", body).status, 200)
    }

    /// A computation still running when the request's deadline passes is abandoned with a 503.
    func testAComputationPastItsDeadlineIsAbandoned() throws {
        let server = try server(timeout: .milliseconds(1))
        let texts = (0..<10_000).map { "\"label number \($0) of many\"" }.joined(separator: ",")
        let response = try Hostile.post(server, "/v1/text/measure", #"{"font":{"family":"DejaVu Sans","size":16},"texts":[\#(texts)]}"#)
        assertProblem(response, 503)
        XCTAssertTrue(response.text.contains("limit of"), response.text)
        assertHealthy(server)
        XCTAssertEqual(try self.server().request("POST", "/v1/text/measure", json: #"{"font":{"family":"DejaVu Sans","size":16},"texts":[\#(texts)]}"#).status, 200)
    }
}

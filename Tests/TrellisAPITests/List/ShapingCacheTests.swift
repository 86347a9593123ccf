import Foundation
import XCTest
@testable import TrellisAPI
import TrellisHTTP
import TrellisText
import TrellisTestSupport

/// The shaping cache between requests: a paragraph shaped once is not shaped again at another width, the answers
/// are the same bytes with it, without it and after its paragraphs were pushed out, one request cannot push out
/// what the others keep, and what it keeps is taken from the memory budget.
final class ShapingCacheTests: XCTestCase {
    private func service(_ cache: ShapingCache) -> TrellisService {
        TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection, shapingCache: cache)))
    }

    private func steps(_ service: TrellisService) -> Int {
        let prefix = #"trellis_compute_steps_total{route="/v1/list/layout"} "#
        return call(service, "GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// The answer and the steps it counted.
    private func layout(_ service: TrellisService, _ json: String, file: StaticString = #filePath, line: UInt = #line) -> (String, Int) {
        let before = steps(service)
        let response = call(service, "POST", "/v1/list/layout", json: json)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return (response.text, steps(service) - before)
    }

    private func list(_ texts: [String], widths: [Int]) -> String {
        let rows = texts.map { #"{"texts":["\#($0)"],"padding":{"leading":8,"trailing":8}}"# }.joined(separator: ",")
        return #"{"font":{"family":"DejaVu Sans, IPAGothic","size":15},"widths":[\#(widths.map(String.init).joined(separator: ","))],"rows":[\#(rows)]}"#
    }

    private func texts(_ prefix: String, _ count: Int) -> [String] {
        (0..<count).map { "\(prefix) message \($0): are we still on for lunch tomorrow, 明日のランチ \($0 * 7)?" }
    }

    func testANewWidthDoesNotShapeAgainAndAnswersTheSameBytes() {
        let mine = texts("mine", 40)
        let scalars = mine.map(\.unicodeScalars.count).reduce(0, +)
        let cached = service(ShapingCache(byteCapacity: 8 << 20))
        let uncached = service(ShapingCache(byteCapacity: 0))
        let (first, _) = layout(cached, list(mine, widths: [300]))
        let (second, warm) = layout(cached, list(mine, widths: [420, 300]))
        let (unkept, shapedAgain) = layout(uncached, list(mine, widths: [420, 300]))
        XCTAssertEqual(warm, shapedAgain - scalars, "laid out, not shaped (a step per scalar shaped)")
        XCTAssertEqual(unkept, second, "the same bytes without the cache")
        XCTAssertEqual(layout(uncached, list(mine, widths: [300])).0, first)
    }

    /// Rule: a key is the text's bytes: a text canonically equivalent to a kept one but of other scalars (é written
    /// as e and U+0301) is shaped as itself, not answered from the other's shaping.
    func testATextOfOtherScalarsIsNotTheKeptOneItIsCanonicallyEquivalentTo() {
        let composed = (0..<10).map { "caf\u{E9} au lait number \($0), the same to go" }
        let decomposed = (0..<10).map { "cafe\u{301} au lait number \($0), the same to go" }
        XCTAssertEqual(composed, decomposed, "Swift's == finds them equal")
        let cached = service(ShapingCache(byteCapacity: 8 << 20))
        _ = layout(cached, list(composed, widths: [300]))
        let (answer, steps) = layout(cached, list(decomposed, widths: [300]))
        let (alone, shaped) = layout(service(ShapingCache(byteCapacity: 0)), list(decomposed, widths: [300]))
        XCTAssertEqual(steps, shaped, "shaped as itself")
        XCTAssertEqual(answer, alone)
    }

    /// Rule: one request keeps up to a quarter of the cache: a list far larger than a sixteenth of it is kept whole,
    /// and its next width shapes nothing.
    func testALargeListIsKeptWholeForItsNextWidth() {
        let cache = ShapingCache(byteCapacity: 1 << 20)
        let service = service(cache)
        let many = texts("many", 80)
        let scalars = many.map(\.unicodeScalars.count).reduce(0, +)
        let (_, cold) = layout(service, list(many, widths: [300]))
        XCTAssertGreaterThan(cache.bytes, (1 << 20) / 16, "more than a sixteenth kept")
        XCTAssertLessThanOrEqual(cache.bytes, cache.perRequestByteCapacity)
        XCTAssertEqual(cache.count, many.count)
        let (second, warm) = layout(service, list(many, widths: [420]))
        let (_, alone) = layout(self.service(ShapingCache(byteCapacity: 0)), list(many, widths: [420]))
        XCTAssertEqual(warm, alone - scalars, "laid out at the new width, nothing shaped")
        XCTAssertEqual(layout(self.service(ShapingCache(byteCapacity: 0)), list(many, widths: [420])).0, second)
        XCTAssertGreaterThan(cold, warm)
    }

    /// Rule: one request keeps at most a quarter of the cache, and a full generation becomes the previous one:
    /// a request of many new paragraphs leaves what another client's request kept where it was.
    func testOneLargeRequestDoesNotPushOutOtherClientsParagraphs() {
        let cache = ShapingCache(byteCapacity: 1 << 20)
        let service = service(cache)
        let mine = texts("mine", 20)
        let scalars = mine.map(\.unicodeScalars.count).reduce(0, +)
        let (answer, cold) = layout(service, list(mine, widths: [300]))
        XCTAssertEqual(layout(service, list(mine, widths: [300])).1, cold - scalars, "kept")
        let before = cache.bytes
        let flood = texts("flood", 2_000)
        _ = layout(service, list(flood, widths: [300]))
        XCTAssertLessThanOrEqual(cache.bytes, before + cache.perRequestByteCapacity, "the flood kept at most its quarter")
        let (again, warm) = layout(service, list(mine, widths: [300]))
        XCTAssertEqual(warm, cold - scalars, "still kept after the flood")
        XCTAssertEqual(again, answer)
    }

    /// Rule: a paragraph is kept by its text's scalars: a text canonically equivalent to a kept one (U+212B ANGSTROM
    /// SIGN for U+00C5, which IPAGothic draws twice as wide) is shaped on its own, not answered with the other's shaping.
    func testACanonicallyEquivalentTextIsNotTheKeptOne() {
        func body(_ letter: String) -> String {
            #"{"font":{"family":"IPAGothic","size":16},"width":350,"rows":[{"texts":["\#(Array(repeating: letter, count: 20).joined(separator: " "))"]}]}"#
        }
        let cached = service(ShapingCache(byteCapacity: 8 << 20))
        let uncached = service(ShapingCache(byteCapacity: 0))
        let precomposed = layout(cached, body("\u{C5}")).0
        let angstrom = layout(cached, body("\u{212B}")).0
        XCTAssertEqual(angstrom, layout(uncached, body("\u{212B}")).0)
        XCTAssertNotEqual(angstrom, precomposed, "the Angstrom sign's paragraph is wider: another line")
    }

    /// After enough requests of new paragraphs the first ones are gone: they are shaped again, to the same bytes.
    func testAfterEvictionTheSameBytes() {
        let cache = ShapingCache(byteCapacity: 1 << 20)
        let service = service(cache)
        let mine = texts("mine", 20)
        let scalars = mine.map(\.unicodeScalars.count).reduce(0, +)
        let (answer, cold) = layout(service, list(mine, widths: [300, 500]))
        // Kept: not shaped again, nor (where a line asked ICU) ICU's boundaries found again.
        XCTAssertLessThanOrEqual(layout(service, list(mine, widths: [300, 500])).1, cold - scalars, "kept")
        for round in 0..<40 { _ = layout(service, list(texts("flood \(round)", 200), widths: [300])) }
        XCTAssertLessThanOrEqual(cache.bytes, cache.byteCapacity)
        let (again, steps) = layout(service, list(mine, widths: [300, 500]))
        XCTAssertEqual(steps, cold, "shaped again")
        XCTAssertEqual(again, answer)
    }

    /// The bytes the cache keeps are the memory budget's: a budget that cannot take them keeps nothing, and a
    /// cache let go gives them back.
    func testWhatTheCacheKeepsIsTakenFromTheMemoryBudget() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 64 << 20))
        var cache: ShapingCache? = ShapingCache(byteCapacity: 8 << 20, budget: budget)
        _ = layout(service(try XCTUnwrap(cache)), list(texts("kept", 30), widths: [300]))
        let kept = try XCTUnwrap(cache).bytes
        XCTAssertGreaterThan(kept, 30 * 60)
        XCTAssertEqual(budget.inUse, kept)
        cache = nil
        XCTAssertEqual(budget.inUse, 0)
        let full = try XCTUnwrap(HTTPMemoryBudget(limit: 1000))
        let starved = ShapingCache(byteCapacity: 8 << 20, budget: full)
        _ = layout(service(starved), list(texts("starved", 30), widths: [300]))
        XCTAssertEqual(starved.count, 0)
        XCTAssertEqual(full.refusals, 0, "the cache's refusals are not the requests'")
    }
}

import Foundation
import XCTest
@testable import TrellisAPI
import TrellisHTTP
import TrellisText
import TrellisTestSupport

/// A list kept (`keep`) and later named by its id (`list`), over a real socket: at new widths, with a scroll and an
/// anchor, it answers the same bytes as the rows sent again; an id not kept, and members the list keeps, are
/// problems at their pointers; the store forgets the oldest lists first and keeps its bytes in the memory budget, which
/// /metrics shows.
final class KeptListLiveTests: XCTestCase {
    private static func server(lanes: ThreadLanes? = nil, store: ListStore = ListStore(), budget: HTTPMemoryBudget? = nil) throws -> LiveServer {
        try LiveServer(
            service: ServiceConfiguration(
                memoryBudget: budget, context: FeatureContext(fonts: TestFonts.collection, listStore: store, lanes: lanes)))
    }

    /// A list of `rows` rows in English, Japanese, Arabic and emoji, with line feeds, tabs, clamps, nowrap and empty
    /// paragraphs among them, keys strings and integers.
    private static func rows(_ count: Int, seed: UInt64) -> String {
        let words = ["are", "we", "still", "on", "for", "lunch", "明日のランチ", "مرحبا", "بالعالم", "😀", "👍🏽", "tomorrow?", "well-known",
                     "Supercalifragilisticexpialidocious", "typed\\nline", "tab\\tstop", "  "]
        let own = ["", #","maxLines":2,"textOverflow":"ellipsis""#, #","whiteSpace":"nowrap","textOverflow":"ellipsis""#,
                   #","whiteSpace":"pre-wrap""#, #","wordBreak":"break-all""#, #","lineHeight":21.5"#, #","textWrap":"balance""#]
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let list = (0..<count).map { row -> String in
            let texts = (0..<next(3)).map { _ -> String in
                let text = (0..<next(40)).map { _ in words[next(words.count)] }.joined(separator: " ")
                let style = next(4) == 0 ? own[next(own.count)] : ""
                return style.isEmpty ? #""\#(text)""# : #"{"text":"\#(text)"\#(style)}"#
            }
            let key = row % 5 == 2 ? "\(row)" : #""m\#(row)""#
            return #"{"key":\#(key),"texts":[\#(texts.joined(separator: ","))],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12}"#
                + (row % 7 == 3 ? #","extraHeight":22"# : "") + (row % 11 == 4 ? #","minHeight":60"# : "") + "}"
        }
        return #""rows":[\#(list.joined(separator: ","))]"#
    }

    private static let shared = #""font":{"family":"DejaVu Sans, IPAGothic, Noto Color Emoji","size":15},"gap":8,"paragraphGap":4"#

    /// The answer's id, from `{"layouts":[…],"list":"…"}`.
    private static func id(_ response: TestResponse) -> String? { response.json["list"] as? String }

    /// The answer without its trailing `"list"` member.
    private static func layouts(_ text: String) -> String {
        guard let cut = text.range(of: #","list":"#, options: .backwards) else { return text }
        return String(text[..<cut.lowerBound]) + "}"
    }

    func testAKeptListAtNewWidthsAnswersAsItsRowsSentAgain() throws {
        try checkNamedListsAnswerAsRowsSentAgain(lanes: nil, count: 60)
    }

    /// The same, the list kept and named laid out in parts on several threads (its shaping put together from the parts').
    func testAKeptListSpreadOverLanesAnswersAsItsRowsSentAgain() throws {
        try checkNamedListsAnswerAsRowsSentAgain(lanes: ThreadLanes(spare: 3), count: 1_500)
    }

    private func checkNamedListsAnswerAsRowsSentAgain(lanes: ThreadLanes?, count: Int) throws {
        let server = try Self.server(lanes: lanes)
        let rows = Self.rows(count, seed: UInt64(count))
        if lanes != nil { XCTAssertGreaterThan(rows.utf8.count, 4 * ListLayout.bytesPerLane, "spread over the lanes") }
        let first = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"widths\":[320,480],\"keep\":true,\(rows)}")
        XCTAssertEqual(first.status, 200, first.text)
        let id = try XCTUnwrap(Self.id(first), first.text)
        XCTAssertEqual(id.utf8.count, 32)
        let asks = [
            #""width":200"#, #""widths":[1,77.5,1000,333.3]"#,
            #""widths":[300,640],"anchor":{"key":"m\#(count / 2 + 1)","offset":3},"scroll":{"offset":900,"viewportHeight":500,"overscan":2}"#,
            #""width":250,"anchor":{"key":\#(count / 2 + 2),"offset":-4}"#, #""width":250,"anchor":{"key":"\#(count / 2 + 2)"}"#,
            #""width":250,"anchor":{"key":"none"},"scroll":{"viewportHeight":300}"#,
        ]
        for ask in asks {
            let sent = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\(ask),\(rows)}")
            XCTAssertEqual(sent.status, 200, sent.text)
            let named = try server.request("POST", "/v1/list/layout", json: #"{"list":"\#(id)",\#(ask)}"#)
            XCTAssertEqual(named.status, 200, named.text)
            XCTAssertEqual(Self.id(named), id, "a list named is named again")
            XCTAssertEqual(Self.layouts(named.text), sent.text, ask)
            XCTAssertNil(sent.json["list"], "a list not asked to be kept is not named")
        }
        // The first answer is the rows' own.
        let again = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"widths\":[320,480],\(rows)}")
        XCTAssertEqual(Self.layouts(first.text), again.text)
    }

    /// A list named alone is answered within the bound of the body that kept it (its own few bytes would allow 1 MiB);
    /// in a batch, its entry keeps its own bound.
    func testANamedListsAnswerIsBoundedAsTheBodyThatKeptIt() throws {
        let server = try Self.server()
        let rows = #""rows":[\#(Array(repeating: #"{"texts":["ok, see you then"],"padding":{"top":4,"bottom":4}}"#, count: 5_000).joined(separator: ","))]"#
        let widths = #""widths":[\#((1...16).map { "\($0 * 40)" }.joined(separator: ","))]"#
        let first = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"width\":100,\"keep\":true,\(rows)}")
        let id = try XCTUnwrap(Self.id(first), first.text)
        let sent = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\(widths),\(rows)}")
        XCTAssertEqual(sent.status, 200)
        XCTAssertGreaterThan(sent.body.count, 16 * 100 + (1 << 20), "past the bound of the named request's own body")
        let named = try server.request("POST", "/v1/list/layout", json: #"{"list":"\#(id)",\#(widths)}"#)
        XCTAssertEqual(named.status, 200, String(named.text.prefix(300)))
        XCTAssertEqual(Self.layouts(named.text), sent.text)
        let batch = try server.request(
            "POST", "/v1/batch", json: #"{"requests":[{"path":"/v1/list/layout","body":{"list":"\#(id)",\#(widths)}}]}"#)
        XCTAssertEqual(batch.status, 200, String(batch.text.prefix(300)))
        XCTAssertEqual((batch.json["responses"] as? [[String: Any]])?.first?["status"] as? Int, 422, String(batch.text.prefix(300)))
    }

    func testAnIdNotKeptAndMembersTheListKeepsAreProblemsAtTheirPointers() throws {
        let server = try Self.server()
        let unknown = try server.request("POST", "/v1/list/layout", json: #"{"list":"0123456789abcdef0123456789abcdef","width":300}"#)
        XCTAssertEqual(unknown.status, 422, unknown.text)
        XCTAssertEqual(unknown.json["type"] as? String, ProblemTypes.listNotKept)
        XCTAssertEqual((unknown.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, ["/list"])
        let first = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"width\":320,\"keep\":true,\(Self.rows(5, seed: 1))}")
        let id = try XCTUnwrap(Self.id(first), first.text)
        let mixed = try server.request(
            "POST", "/v1/list/layout", json: #"{"list":"\#(id)","rows":[],"font":{"family":"DejaVu Sans","size":9},"gap":2,"maxLines":1,"keep":1}"#)
        XCTAssertEqual(mixed.status, 422, mixed.text)
        XCTAssertEqual((mixed.json["errors"] as? [[String: String]])?.compactMap { $0["pointer"] }.sorted(), ["/font", "/gap", "/keep", "/maxLines", "/rows", "/width"])
        XCTAssertNotEqual(mixed.json["type"] as? String, ProblemTypes.listNotKept)
        let wrong = try server.request("POST", "/v1/list/layout", json: #"{"list":7,"width":300}"#)
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual((wrong.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, ["/list"])
    }

    func testTheStoreForgetsTheOldestListsFirstAndKeepsNoneLargerThanHalfOfIt() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1 << 30))
        let store = ListStore(byteCapacity: 1 << 20, budget: budget)
        let server = try Self.server(store: store, budget: budget)
        var ids: [String] = []
        for seed in 0..<40 {
            let answer = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"width\":320,\"keep\":true,\(Self.rows(20, seed: UInt64(seed)))}")
            ids.append(try XCTUnwrap(Self.id(answer), answer.text))
        }
        XCTAssertLessThanOrEqual(store.bytes, store.byteCapacity)
        XCTAssertLessThan(store.count, 40, "the store is full")
        XCTAssertGreaterThan(store.count, 1)
        let kept = try ids.map { try server.request("POST", "/v1/list/layout", json: #"{"list":"\#($0)","width":300}"#).status }
        XCTAssertEqual(kept, Array(repeating: 422, count: 40 - store.count) + Array(repeating: 200, count: store.count), "the oldest forgotten first")
        // A list larger than half the store is answered and not kept: its name is null.
        let large = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"width\":320,\"keep\":true,\(Self.rows(600, seed: 9))}")
        XCTAssertEqual(large.status, 200, large.text)
        XCTAssertTrue(large.json["list"] is NSNull, large.text)
    }

    func testAKeptListsBytesAreTakenFromTheMemoryBudgetAndGivenBack() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1 << 30))
        var store: ListStore? = ListStore(byteCapacity: 64 << 20, budget: budget)
        do {
            let server = try Self.server(store: store ?? ListStore(), budget: budget)
            let answer = try server.request("POST", "/v1/list/layout", json: "{\(Self.shared),\"width\":320,\"keep\":true,\(Self.rows(200, seed: 5))}")
            XCTAssertNotNil(Self.id(answer), answer.text)
            // /metrics shows what the lists keep.
            let metrics = try server.request("GET", "/metrics").text
            XCTAssertTrue(metrics.contains("\ntrellis_kept_lists 1\n"), metrics)
            XCTAssertTrue(metrics.contains("\ntrellis_kept_list_bytes \(store?.bytes ?? -1)\n"), metrics)
            XCTAssertTrue(metrics.contains("\ntrellis_kept_list_capacity_bytes \(64 << 20)\n"), metrics)
            XCTAssertTrue(metrics.contains("\ntrellis_shaping_cache_paragraphs "), metrics)
        }
        let bytes = store?.bytes ?? 0
        // Each paragraph's shaping counts its arrays: far more than its text.
        XCTAssertGreaterThan(bytes, 200 * 1_000)
        XCTAssertEqual(budget.inUse, bytes)
        store = nil
        XCTAssertEqual(budget.inUse, 0)
    }
}

import Dispatch
import Foundation
import XCTest
@testable import TrellisAPI
import TrellisHTTP
import TrellisText
import TrellisTestSupport

/// A large list laid out on several cores at once (the server's lanes) answers the same bytes as on one thread, over
/// a real socket, alone and with other such requests at the same time, refusals included.
final class ListLanesLiveTests: XCTestCase {
    private static func server(lanes: ThreadLanes?) throws -> LiveServer {
        try LiveServer(service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection, lanes: lanes)))
    }

    /// A chat of `rows` messages in English, Japanese, Arabic and emoji (about 120 KB at 1,000), at three widths.
    private static func chat(rows: Int, refusing: Int? = nil) -> String {
        let words = ["are", "we", "still", "on", "for", "lunch", "明日のランチ", "مرحبا", "بالعالم", "😀", "👍🏽", "tomorrow?", "well-known"]
        var state: UInt64 = 17
        let messages = (0..<rows).map { row -> String in
            var text = (0..<(3 + row % 40)).map { _ -> String in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return words[Int((state >> 33) % UInt64(words.count))]
            }.joined(separator: " ")
            if row == refusing { text += "\\u0001" }
            return #"{"key":"m\#(row)","texts":["\#(text)"],"padding":{"top":8,"bottom":8,"leading":12,"trailing":12}\#(row % 7 == 3 ? #","extraHeight":22"# : "")}"#
        }
        return #"{"font":{"family":"DejaVu Sans, IPAGothic, Noto Color Emoji","size":15},"widths":[320,480,720],"gap":8,"paragraphGap":4,"#
            + #""anchor":{"key":"m500","offset":3},"scroll":{"offset":9000,"viewportHeight":800,"overscan":3},"rows":[\#(messages.joined(separator: ","))]}"#
    }

    func testALargeListOnSeveralCoresIsTheSameBytesAsOnOne() throws {
        let alone = try Self.server(lanes: nil)
        let spread = try Self.server(lanes: ThreadLanes(spare: 3))
        let body = Self.chat(rows: 1_000)
        XCTAssertGreaterThan(body.utf8.count, 4 * ListLayout.bytesPerLane)
        let expected = try alone.request("POST", "/v1/list/layout", json: body)
        XCTAssertEqual(expected.status, 200, expected.text)
        XCTAssertEqual(try spread.request("POST", "/v1/list/layout", json: body).text, expected.text)
        // Four such requests at once: the lanes are borrowed by whichever comes first, the others run on their own thread.
        let answers = PosixLocked<[String]>([])
        // (The server is only read: each request makes a connection of its own.)
        nonisolated(unsafe) let shared = spread
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let text = (try? shared.request("POST", "/v1/list/layout", json: body).text) ?? "no answer"
            answers.withLock { $0.append(text) }
        }
        XCTAssertEqual(answers.withLock { $0 }, Array(repeating: expected.text, count: 4))
    }

    func testARefusedParagraphIsAnsweredAsOnOneThread() throws {
        let alone = try Self.server(lanes: nil)
        let spread = try Self.server(lanes: ThreadLanes(spare: 1))
        let body = Self.chat(rows: 1_000, refusing: 900)
        let expected = try alone.request("POST", "/v1/list/layout", json: body)
        XCTAssertEqual(expected.status, 422)
        XCTAssertTrue(expected.text.contains("/rows/900/texts/0"), expected.text)
        let answer = try spread.request("POST", "/v1/list/layout", json: body)
        XCTAssertEqual(answer.status, 422)
        XCTAssertEqual(answer.text, expected.text)
    }
}

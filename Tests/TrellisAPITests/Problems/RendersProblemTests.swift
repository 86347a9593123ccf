import Foundation
import TrellisCore
import TrellisHTTP
import TrellisJSON
import TrellisTestSupport
import TrellisText
import XCTest
@testable import TrellisAPI

/// Every typed refusal renders itself through one protocol: the transport's as a whole answer (its status, its
/// detail, Retry-After on a 503), the drawer's and the text's as one of the body's problems at the member or the text
/// to blame; the words are the ones clients have been shown all along.
final class RendersProblemTests: XCTestCase {
    func testEveryTransportRefusalIsAnsweredWithItsOwnStatusAndDetail() throws {
        let service = TrellisService()
        let expected: [(HTTPRejection, Int, String)] = [
            (.bodyTooLarge(limit: 1000), 413, "The request body is larger than the limit of 1000 bytes."),
            (.overloaded, 503, "Too many open connections; retry shortly."),
            (.memoryExhausted, 503, "The server is short of memory for this request's body; retry shortly."),
            (.bodyDelayed, 503, "The server could not read this request's body in time (too many large bodies at once); retry shortly."),
            (.unsupportedTransferEncoding, 400,
             "Transfer-Encoding other than chunked is not supported; send the body with Content-Length or chunked."),
            (.ambiguousLength, 400, "The body's length is ambiguous: send one Content-Length or Transfer-Encoding: chunked, not both."),
            (.malformedHead, 400,
             "The request head is malformed: header names must be tokens with the colon right after them, "
                + "values must not contain control characters other than tab, and lines must not be folded."),
            (.nulInTarget, 400, "The request target contains a NUL byte (raw or %00 in the path)."),
            (.badHost, 400,
             "Send exactly one Host header (HTTP/1.1 requires it) whose value is host or host:port, without userinfo or whitespace."),
            (.badTarget, 400,
             "The request target must be a path (/v1/...), an absolute URI with a valid host (http://host/v1/...), "
                + "or * for OPTIONS, with no whitespace or control characters."),
        ]
        for (rejection, status, detail) in expected {
            let response = service.handle(TrellisRequest(method: "POST", path: "/v1/flow/layout", rejection: rejection))
            XCTAssertEqual(response.status, status, "\(rejection)")
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
            XCTAssertEqual(response.headers["Retry-After"], status == 503 ? "1" : nil, "\(rejection)")
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body.bytes)) as? [String: Any])
            XCTAssertEqual(body["status"] as? Int, status)
            XCTAssertEqual(body["title"] as? String, TrellisStatus.reason(status))
            XCTAssertEqual(body["detail"] as? String, detail, "\(rejection)")
        }
    }

    func testADrawerRefusalIsAProblemAtTheMemberItBlames() {
        let expected: [(DrawerRefusal, String, String)] = [
            (.travelNotRepresentable, "/container/width",
             "is too large next to the panel's width for its travel to be represented"),
            (.motion(.nonFinite, blameStart: true), "/from",
             "is too far from the panel's travel, or too fast, for the spring's progress to be represented"),
            (.motion(.nonFinite, blameStart: false), "/spring",
             "gives a stiffness or damping too large to represent; use a longer response or duration"),
            (.motion(.settlesTooLate, blameStart: false), "/spring",
             "with this spring the transition would not settle (|1 − p| < 0.001) within \(Int(DrawerLimits.maxSettlingDuration)) s"),
            (.motion(.tooManyKeyframes(needed: 3000, allowed: 2500), blameStart: false), "/spring",
             "with this spring the transition at this frameRate needs 3000 keyframes; a request may ask for at most 2500 keyframes "
                + "and easing samples together: use a spring that settles sooner or a lower frameRate"),
            (.motion(.tooManySamples(allowed: 700), blameStart: true), "/from",
             "with this start position and velocity the transition changes too fast or too often for a CSS easing within 0.002 "
                + "of it: that would need more than 700 samples (what its keyframes at this frameRate leave of the "
                + "\(DrawerLimits.maxWork) keyframes and easing samples a request may ask for): use a spring that rings less or "
                + "a lower frameRate"),
        ]
        for (refusal, pointer, detail) in expected {
            var problems = Problems()
            problems.add(refusal)
            XCTAssertEqual(problems.list, [Problem(pointer: pointer, detail: detail)], "\(refusal)")
        }
    }

    func testATextRefusalIsAProblemAtItsTextAndTheDeadlineRecordsNone() throws {
        let text = Array(#"{"texts":["ok","x"]}"#.utf8)
        try text.withUnsafeBytes { raw in
            let document = try JSONDocument.parse(raw, padded: false).get()
            let refused = try XCTUnwrap(document.root.member("texts").map { Array($0.elements)[1] })
            let expected: [(TextRefusal, String)] = [
                (.forbidden(scalar: 0x09, offset: 3), "contains U+0009, a control character, at scalar 3; these cannot be measured"),
                (.forbidden(scalar: 0x2066, offset: 0),
                 "contains U+2066, an explicit bidi embedding, override or isolate, at scalar 0; these cannot be measured"),
                (.uncovered([[0x5E9], [0x1F600, 0xFE0F]]), "has characters no listed family can show: U+05E9, U+1F600 U+FE0F"),
                (.clusterTooLong(offset: 1, scalars: 40),
                 "has a grapheme cluster of 40 Unicode scalars at scalar 1; at most \(TextMeasurer.maxClusterScalars) are allowed in one cluster"),
                (.outOfMemory, "could not be measured: the server ran out of memory"),
            ]
            for (refusal, detail) in expected {
                var problems = Problems()
                problems.add(refusal, at: refused)
                XCTAssertEqual(problems.list, [Problem(pointer: "/texts/1", detail: detail)], "\(refusal)")
            }
            // The request's deadline passed: the answer is the pipeline's 503, so the refusal records nothing.
            var problems = Problems()
            problems.add(TextRefusal.stopped, at: refused)
            XCTAssertTrue(problems.isEmpty)
        }
    }
}

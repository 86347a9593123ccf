import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
@testable import TrellisJSON
import TrellisTestSupport

/// Small requests that ask for huge answers, over a real socket: every answer stays within
/// 16 × its request + 1 MiB, and the process lives.
final class HostileAmplificationTests: HostileTestCase {
    /// The documented bound on any answer to a request body of `requestBytes`.
    private func bound(_ requestBytes: Int) -> Int { 16 * requestBytes + (1 << 20) }

    private func post(_ server: LiveServer, _ path: String, _ body: String) throws -> TestResponse {
        let response = try Hostile.post(server, path, body)
        XCTAssertLessThanOrEqual(response.body.count, bound(body.utf8.count), "\(path): \(response.body.count) bytes answered to \(body.utf8.count)")
        return response
    }

    /// A parent id repeated on every child row: the answer would be ~16 MB for a 40 KB request.
    func testRowsThatRepeatALongParentIdAreRefusedWithAdvice() throws {
        let server = try Hostile.server()
        let children = (0..<4000).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let parent = String(repeating: "A", count: 4000)
        let body = #"{"nodes":[{"id":"\#(parent)","children":[\#(children)]}],"selection":0}"#
        let refused = try post(server, "/v1/outline/rows", body)
        assertProblem(refused, 422)
        XCTAssertTrue((refused.json["detail"] as? String ?? "").contains("offset and limit"), refused.text)
        // The same tree asked for a window of rows is answered.
        let window = try post(server, "/v1/outline/rows", String(body.dropLast()) + #","limit":100}"#)
        XCTAssertEqual(window.status, 200, window.text.prefix(300).description)
        XCTAssertEqual((window.json["rows"] as? [Any])?.count, 100)
        assertHealthy(server)
    }

    /// The original crash: a 1 MB id (longer than ids may be) with 4,000 children.
    func testAMegabyteIdIsRefusedAtOnce() throws {
        let server = try Hostile.server(maxBodyBytes: 2 << 20)
        let children = (0..<4000).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let body = #"{"nodes":[{"id":"\#(String(repeating: "A", count: 1 << 20))","children":[\#(children)]}],"selection":0}"#
        let response = try post(server, "/v1/outline/rows", body)
        assertProblem(response, 422)
        XCTAssertEqual((response.json["errors"] as? [[String: Any]])?.first?["pointer"] as? String, "/nodes/0/id")
        assertHealthy(server)
    }

    /// Paths repeat the whole chain for every selection: 1,000 selections of the deepest of 2,000 nodes.
    func testExpansionPathsPastTheBoundAreRefusedWithAdvice() throws {
        let server = try Hostile.server(maxBodyBytes: 1 << 20)
        var nodes = [#"{"id":0}"#]
        for i in 1..<2000 { nodes.append(#"{"id":\#(i),"up":\#(i - 1)}"#) }
        let selections = Array(repeating: "1999", count: 1000).joined(separator: ",")
        let body = #"{"parentKey":"up","nodes":[\#(nodes.joined(separator: ","))],"selections":[\#(selections)]}"#
        let response = try post(server, "/v1/outline/expansion", body)
        assertProblem(response, 422)
        XCTAssertTrue((response.json["detail"] as? String ?? "").contains("fewer selections"), response.text)
        // Ten selections of the same node fit.
        let few = try post(server, "/v1/outline/expansion", body.replacingOccurrences(of: selections, with: Array(repeating: "1999", count: 10).joined(separator: ",")))
        XCTAssertEqual(few.status, 200)
        assertHealthy(server)
    }

    /// A long idKey quoted in the pointer of every node that lacks it.
    func testALongIdKeyIsOneProblemNotAHundredCopies() throws {
        let server = try Hostile.server(maxBodyBytes: 2 << 20)
        let nodes = Array(repeating: "{}", count: 100).joined(separator: ",")
        let body = #"{"idKey":"\#(String(repeating: "~", count: 1 << 20))","nodes":[\#(nodes)]}"#
        for path in ["/v1/outline/rows", "/v1/outline/expansion"] {
            let response = try post(server, path, body)
            assertProblem(response, 422)
            let errors = response.json["errors"] as? [[String: Any]] ?? []
            XCTAssertEqual(errors.map { $0["pointer"] as? String }, ["/idKey"])
        }
        // A key at the limit is escaped once per pointer ("~" → "~0").
        let key = String(repeating: "~", count: OutlineLimits.maxKeyBytes)
        let atLimit = try post(server, "/v1/outline/rows", #"{"idKey":"\#(key)","nodes":[\#(nodes)]}"#)
        assertProblem(atLimit, 422)
        let pointers = (atLimit.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        XCTAssertEqual(pointers.count, 100)
        XCTAssertEqual(pointers.last, "/nodes/99/" + String(repeating: "~0", count: OutlineLimits.maxKeyBytes))
    }

    /// Pointers as deep as the nested form allows, a hundred of them: the list is cut to the bound.
    func testDeepPointersAreCutToTheAnswerBound() throws {
        let server = try Hostile.server(maxBodyBytes: 1 << 20)
        let key = String(repeating: "c", count: OutlineLimits.maxKeyBytes)
        let depth = 500
        var body = #"{"childrenKey":"\#(key)","nodes":"#
        for i in 0..<depth { body += #"[{"id":\#(i),"\#(key)":"# }
        body += "[" + Array(repeating: "{}", count: 100).joined(separator: ",") + "]"
        body += String(repeating: "}]", count: depth) + "}"
        let response = try post(server, "/v1/outline/rows", body)
        // Larger than the suite's usual 64 KiB for a problem, within the answer bound.
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        let errors = response.json["errors"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(errors.count, 0)
        XCTAssertLessThan(errors.count, 100)
        XCTAssertTrue((response.json["detail"] as? String ?? "").contains("the first \(errors.count) are listed"), response.text.prefix(300).description)
        let expected = String(repeating: "/0/" + key, count: depth) + "/0/id"
        XCTAssertEqual(errors.first?["pointer"] as? String, "/nodes" + expected)
        assertHealthy(server)
    }

    /// Integers beyond 64 bits are read as doubles, and digits after '.', 'e' or '-' stay part of their number.
    func testLongFractionsBesideBigIntegersAreValidJSON() throws {
        let server = try Hostile.server()
        let items = "123456789012345678901234, 0.123456789012345678901234, -0.123456789012345678901234e5, 1.5"
        let response = try post(server, "/v1/sections/toggle", #"{"sections":[{"id":"a","items":[\#(items)]}],"toggle":"a"}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let echoed = ((response.json["sections"] as? [[String: Any]])?.first?["items"] as? [Any])?.count
        XCTAssertEqual(echoed, 4, response.text)
    }

    /// An answer that the memory budget can't hold is a 503 with Retry-After, and its bytes are given back.
    func testAnAnswerPastTheMemoryBudgetIs503() throws {
        // 1 MiB: the body's buffer (512 KiB) and the answer's first 512 KiB fit, its next doubling does not.
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1 << 20))
        let server = try LiveServer(
            http: HTTPServerConfiguration(threads: 2, maxBodyBytes: 1 << 20),
            service: ServiceConfiguration(memoryBudget: budget))
        let items = Array(repeating: #"{"width":10,"height":5}"#, count: 16000).joined(separator: ",")
        let response = try post(server, "/v1/flow/layout", #"{"containerWidth":1000,"items":[\#(items)]}"#)
        assertProblem(response, 503)
        XCTAssertEqual(response.header("Retry-After"), "1")
        let small = try post(server, "/v1/flow/layout", #"{"containerWidth":1000,"items":[{"width":10,"height":5}]}"#)
        XCTAssertEqual(small.status, 200)
        assertNoRequestsLeft(server)
        XCTAssertEqual(budget.inUse, 0, "every reservation is given back")
        XCTAssertGreaterThan(budget.refusals, 0)
    }
}

import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisJSON
import TrellisTestSupport

/// `POST /v1/batch` over a real socket: each entry is answered byte for byte as its endpoint answers the
/// same body alone; a malformed batch is a 422 with a pointer for each problem; the bounds, the deadline
/// and the metrics cover the batch and its entries.
final class BatchEndpointTests: XCTestCase {
    private func server(_ configuration: ServiceConfiguration = ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        throws -> LiveServer
    {
        try LiveServer(http: HTTPServerConfiguration(threads: 2, maxBodyBytes: 16 << 20), service: configuration)
    }

    private func post(_ connection: TestConnection, _ path: String, _ body: [UInt8]) throws -> TestResponse {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        try connection.send(Array(head.utf8) + body)
        return try connection.readResponse(method: "POST")
    }

    private func batch(_ entries: [(path: String, body: [UInt8])]) -> [UInt8] {
        var out = Array(#"{"requests":["#.utf8)
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(#"{"path":"\#(entry.path)","body":"#.utf8) + entry.body + [UInt8(ascii: "}")]
        }
        return out + Array("]}".utf8)
    }

    /// The entries of a batch's answer as written: each one's status and the exact bytes of its body.
    private func entries(_ answer: [UInt8]) -> [(status: Int, body: [UInt8])]? {
        let prefix = Array(#"{"responses":["#.utf8)
        guard answer.starts(with: prefix), answer.suffix(2) == [UInt8(ascii: "]"), UInt8(ascii: "}")] else { return nil }
        var result: [(Int, [UInt8])] = []
        var i = prefix.count
        let statusKey = Array(#"{"status":"#.utf8), bodyKey = Array(#","body":"#.utf8)
        while i < answer.count - 2 {
            if answer[i] == UInt8(ascii: ",") { i += 1 }
            guard answer[i...].starts(with: statusKey) else { return nil }
            i += statusKey.count
            var status = 0
            while answer[i] >= UInt8(ascii: "0") && answer[i] <= UInt8(ascii: "9") {
                status = status * 10 + Int(answer[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard answer[i...].starts(with: bodyKey) else { return nil }
            i += bodyKey.count
            let start = i
            var depth = 0
            var inString = false
            repeat {
                let c = answer[i]
                if inString {
                    if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                } else if c == UInt8(ascii: "\"") {
                    inString = true
                } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    depth += 1
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    depth -= 1
                }
                i += 1
            } while depth > 0 || inString
            result.append((status, Array(answer[start..<i])))
            guard answer[i] == UInt8(ascii: "}") else { return nil }
            i += 1
        }
        return result
    }

    private func pointers(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
    }

    /// The answer corpus's requests that are JSON (a batch holds JSON values), with their answers alone.
    private func corpus(_ connection: TestConnection) throws -> [(path: String, body: [UInt8], alone: TestResponse)] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AnswerCorpus/answers.jsonl")
        var result: [(String, [UInt8], TestResponse)] = []
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let pair = try JSONDecoder().decode(AnswerCorpusTests.Pair.self, from: Data(line.utf8))
            let body = [UInt8](Data(base64Encoded: pair.request) ?? Data())
            let alone = try post(connection, pair.path, body)
            // Not JSON, or nested too deep to sit three levels down in a batch.
            if alone.status == 400 || alone.status == 413 { continue }
            result.append((pair.path, body, alone))
        }
        return result
    }

    func testEveryCorpusRequestIsAnsweredInABatchAsItIsAlone() throws {
        let server = try server()
        let connection = try server.connect()
        let requests = try corpus(connection)
        XCTAssertGreaterThan(requests.count, 100)
        XCTAssertGreaterThan(Set(requests.map(\.path)).count, 6)
        // Batches of mixed sizes over the whole corpus, and the corpus again in another order.
        let sizes = [1, 2, 3, 7, 13, 50, 100, 5, 31]
        var order = Array(requests.indices) + Array(requests.indices.reversed())
        var compared = 0
        var s = 0
        while !order.isEmpty {
            let size = min(sizes[s % sizes.count], order.count)
            s += 1
            let chosen = Array(order.prefix(size))
            order.removeFirst(size)
            let body = batch(chosen.map { (requests[$0].path, requests[$0].body) })
            let response = try post(connection, "/v1/batch", body)
            let expectedSize = chosen.reduce(20) { $0 + requests[$1].alone.body.count + 30 }
            if expectedSize > 16 * body.count + (1 << 20) {
                // Rule: the answer bound covers the whole batch.
                XCTAssertEqual(response.status, 422, response.text.prefix(300).description)
                continue
            }
            XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
            XCTAssertEqual(response.header("Content-Type"), "application/json")
            guard let answered = entries(response.body) else {
                XCTFail("not a batch answer: \(response.text.prefix(300))")
                continue
            }
            XCTAssertEqual(answered.count, chosen.count)
            for (entry, index) in zip(answered, chosen) {
                let alone = requests[index].alone
                let context = "\(requests[index].path) \(String(decoding: requests[index].body.prefix(120), as: UTF8.self))"
                XCTAssertEqual(entry.status, alone.status, context)
                XCTAssertTrue(entry.body == alone.body, "\(context)\nalone \(alone.text.prefix(300))\nbatch \(String(decoding: entry.body.prefix(300), as: UTF8.self))")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, requests.count)
    }

    /// Each entry's body is measured as the bytes it was sent with: strings with escaped quotes and
    /// backslashes, numbers (integers beyond 64 bits too, which are parsed from a widened copy), literals,
    /// nesting and whitespace between the tokens.
    func testEachEntryBodyIsMeasuredByItsOwnBytes() throws {
        let bodies = [
            #"{"a" : "x\"}\\" , "b":[1, -2.5e-3 ,true,false,null,{}],"c":{"d":[[]]}}"#, "7", #""\\""#, " [ ] ", "null",
            #"{"containerWidth":300,"items":[{"text":"caf\u00e9 \"q\""}]}"#, "123456789012345678901234567890 ",
            #"{"n":[-99999999999999999999, 18446744073709551616 ,1]}"#, "-12.5e3",
        ]
        let text = "{ \"requests\" : [" + bodies.enumerated().map { k, body in
            #"{"path":"/p","pad":"}\"]",\#(k == 3 ? #""big":123456789012345678901234567890,"# : "")"body":\#(body)}"#
        }.joined(separator: " ,\n") + "]}"
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false, keepingIndex: true) else {
                return XCTFail("not JSON: \(text)")
            }
            let values = try XCTUnwrap(document.root.member("requests")).elements.compactMap { $0.member("body") }
            XCTAssertEqual(document.byteCounts(of: values, in: raw), bodies.map { $0.trimmingCharacters(in: .whitespaces).utf8.count })
        }
    }

    func testEveryProblemOfAMalformedBatchHasItsPointer() throws {
        let server = try server()
        let tooMany = "{\"requests\":[" + Array(repeating: #"{"path":"/v1/text/measure","body":{}}"#, count: 101).joined(separator: ",") + "]}"
        let cases: [(String, [String])] = [
            ("[]", [""]),
            ("\"requests\"", [""]),
            ("{}", ["/requests"]),
            (#"{"requests":{}}"#, ["/requests"]),
            (#"{"requests":[]}"#, ["/requests"]),
            (tooMany, ["/requests"]),
            (
                #"{"requests":[1,{"path":"/v1/nope","body":{}},{"path":"/v1/batch","body":{"requests":[]}},{"body":{}},"#
                    + #"{"path":"/v1/flow/layout"},{"path":7,"body":{}},{"path":"/healthz","body":{}},"#
                    + #"{"path":"/v1/flow/layout","body":{}},[],{}]}"#,
                ["/requests/0", "/requests/1/path", "/requests/2/path", "/requests/3/path", "/requests/4/body",
                 "/requests/5/path", "/requests/6/path", "/requests/8", "/requests/9/path", "/requests/9/body"]
            ),
        ]
        for (body, expected) in cases {
            let response = try server.request("POST", "/v1/batch", json: body)
            XCTAssertEqual(response.status, 422, body)
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json", body)
            XCTAssertEqual(pointers(response), expected, "\(body.prefix(200)): \(response.text.prefix(600))")
        }
        XCTAssertEqual(try server.request("POST", "/v1/batch", json: #"{"requests":["#).status, 400)
        let plain = try server.connect()
        try plain.send("POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}")
        XCTAssertEqual(try plain.readResponse(method: "POST").status, 415)
        XCTAssertEqual(try server.request("GET", "/v1/batch").status, 405)
        // Entries that answer problems of their own leave the batch well formed: 200.
        let fine = try server.request(
            "POST", "/v1/batch", json: #"{"requests":[{"path":"/v1/flow/layout","body":[]},{"path":"/v1/text/measure","body":{"texts":7}}]}"#)
        XCTAssertEqual(fine.status, 200, fine.text)
        XCTAssertEqual(entries(fine.body)?.map(\.status), [422, 422])
    }

    /// An entry whose answer would pass its own bound (16 × its body + 1 MiB) is its own 422; the batch's
    /// other entries are answered.
    func testAnEntryPastItsOwnBoundIsItsOwn422() throws {
        let server = try server()
        let children = (0..<4000).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let rows = Array(#"{"nodes":[{"id":"\#(String(repeating: "A", count: 4000))","children":[\#(children)]}],"selection":0}"#.utf8)
        let measure = Array(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a","bc"]}"#.utf8)
        let connection = try server.connect()
        let rowsAlone = try post(connection, "/v1/outline/rows", rows)
        XCTAssertEqual(rowsAlone.status, 422)
        let measureAlone = try post(connection, "/v1/text/measure", measure)
        // Padding makes the batch's own bound far larger than the rows entry's.
        let padding = Array(("{\"font\":{\"family\":\"DejaVu Sans\",\"size\":16},\"texts\":[" + Array(repeating: "\"x\"", count: 9_000).joined(separator: ",") + "]}").utf8)
        let response = try post(
            connection, "/v1/batch", batch([("/v1/outline/rows", rows), ("/v1/text/measure", measure), ("/v1/text/measure", padding)]))
        XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
        let answered = try XCTUnwrap(entries(response.body))
        XCTAssertEqual(answered.map(\.status), [422, 200, 200])
        XCTAssertTrue(answered[0].body == rowsAlone.body, String(decoding: answered[0].body.prefix(400), as: UTF8.self))
        XCTAssertTrue(answered[1].body == measureAlone.body)
        // Two entries each within its own bound but together past the batch's: the batch is refused, naming the second.
        let window = Array((String(decoding: rows.dropLast(), as: UTF8.self) + #","limit":350}"#).utf8)
        let windowAlone = try post(connection, "/v1/outline/rows", window)
        XCTAssertEqual(windowAlone.status, 200)
        XCTAssertLessThan(windowAlone.body.count, 16 * window.count + (1 << 20))
        XCTAssertGreaterThan(2 * windowAlone.body.count, 16 * 2 * window.count + (1 << 20))
        let both = try post(connection, "/v1/batch", batch([("/v1/outline/rows", window), ("/v1/outline/rows", window)]))
        XCTAssertEqual(both.status, 422, both.text.prefix(300).description)
        XCTAssertEqual(pointers(both), ["/requests/1"])
    }

    /// Rows that each repeat their parent's 4,000-byte id (about 4.1 KB a row, from 11 bytes of body): `children` rows
    /// under one parent, a window of `limit` of them when given.
    private func longParentRows(children: Int, limit: Int? = nil) -> [UInt8] {
        let list = (0..<children).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        return Array((#"{"nodes":[{"id":"\#(String(repeating: "A", count: 4000))","children":[\#(list)]}],"selection":0"#
            + (limit.map { #","limit":\#($0)"# } ?? "") + "}").utf8)
    }

    /// A hundred entries that each pass their own bound are a hundred 422s of their own, in a 200 as small as those
    /// problems: the bytes an entry wrote before it was taken back are no part of the batch's answer, and an entry's
    /// bound holds even where the batch's buffer has grown past it for an earlier entry.
    func testAHundredEntriesEachPastItsOwnBoundAreEachTheirOwn422() throws {
        let server = try server()
        // 6,000 children make a body of about 70 KB; a window of rows just past 16 × that + 1 MiB.
        let bound = 16 * longParentRows(children: 6000, limit: 1000).count + (1 << 20)
        let rows = longParentRows(children: 6000, limit: bound / 4000 + 10)
        // The batch writes and takes back about 100 MiB of answers: a sanitizer build takes more than the
        // default 10 s to, so the connection waits longer (a hang still fails it).
        let connection = try TestConnection(port: server.port, timeoutSeconds: 120)
        let alone = try post(connection, "/v1/outline/rows", rows)
        XCTAssertEqual(alone.status, 422, alone.text.prefix(300).description)
        XCTAssertTrue(alone.text.contains("larger than \(16 * rows.count + (1 << 20)) bytes"), alone.text)
        let body = batch(Array(repeating: ("/v1/outline/rows", rows), count: BatchLimits.maxRequests))
        let response = try post(connection, "/v1/batch", body)
        XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
        let answered = try XCTUnwrap(entries(response.body), response.text.prefix(300).description)
        XCTAssertEqual(answered.count, BatchLimits.maxRequests)
        for (k, entry) in answered.enumerated() {
            XCTAssertEqual(entry.status, 422, "entry \(k)")
            XCTAssertTrue(entry.body == alone.body, "entry \(k): \(String(decoding: entry.body.prefix(300), as: UTF8.self))")
        }
        XCTAssertLessThan(response.body.count, BatchLimits.maxRequests * (alone.body.count + 40))
    }

    /// What the entries taken back wrote past 16 × their bodies (each up to the 1 MiB any request may write) comes out
    /// of one allowance, the batch's own answer bound: small entries that each pass their own bound are taken back
    /// until it is spent, and then the batch is a 422 naming the entry that would pass it, which stops there.
    func testEntriesTakenBackShareOneAllowance() throws {
        let server = try server()
        // About 7 KB each, with answers of 1.2 MB: each passes its bound after writing about 1 MiB more than 16 × its body.
        let rows = longParentRows(children: 300)
        let connection = try server.connect()
        let alone = try post(connection, "/v1/outline/rows", rows)
        XCTAssertEqual(alone.status, 422, alone.text.prefix(300).description)
        // One such entry always fits the allowance (1 MiB + 16 × the batch's body), beside others that are answered.
        let measure = Array(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["a"]}"#.utf8)
        let one = try post(connection, "/v1/batch", batch([("/v1/text/measure", measure), ("/v1/outline/rows", rows)]))
        XCTAssertEqual(one.status, 200, one.text.prefix(300).description)
        XCTAssertEqual(entries(one.body)?.map(\.status), [200, 422])
        XCTAssertTrue(entries(one.body)?.last?.body == alone.body)
        // A hundred: each one taken back used up to 1 MiB of the allowance (less by at most a row it could not write).
        let body = batch(Array(repeating: ("/v1/outline/rows", rows), count: BatchLimits.maxRequests))
        let allowance = 16 * body.count + (1 << 20)
        let answered = allowance / (1 << 20)
        XCTAssertEqual(answered, allowance / ((1 << 20) - 4200), "the test's sizes leave no doubt which entry passes it")
        let refused = try post(connection, "/v1/batch", body)
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(refused.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(pointers(refused), ["/requests/\(answered)"], refused.text)
        XCTAssertTrue(refused.text.contains("more than \(allowance) bytes past 16 × their bodies"), refused.text)
    }

    /// The metrics count the batch and each entry under its own route; a batch's steps are its entries' steps.
    func testMetricsCountEachEntryUnderItsRouteAndTheBatchCostsWhatItsEntriesCost() throws {
        let server = try server()
        func metric(_ name: String, _ route: String, _ extra: String = "") throws -> Int {
            let prefix = #"\#(name){route="\#(route)"\#(extra)} "#
            return try server.request("GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
                .flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }
        // Requests whose steps no cache changes (a flow of labels measures each label once per process).
        let flow = Array(#"{"nodes":[{"id":1,"label":"alpha beta"},{"id":2,"parent":1,"label":"beta gamma"}],"parentKey":"parent","search":{"query":"beta"}}"#.utf8)
        let drawer = Array(#"{"sections":[{"id":"a","items":["x","y"]},{"id":"b","items":["z"]}],"expanded":["a"],"toggle":"b"}"#.utf8)
        let connection = try server.connect()
        func steps(_ path: String, _ body: [UInt8]) throws -> Int {
            let before = try metric("trellis_compute_steps_total", path)
            XCTAssertEqual(try post(connection, path, body).status, 200)
            return try metric("trellis_compute_steps_total", path) - before
        }
        let rowsSteps = try steps("/v1/outline/rows", flow)
        let drawerSteps = try steps("/v1/sections/toggle", drawer)
        XCTAssertGreaterThan(rowsSteps, 0)
        XCTAssertGreaterThan(drawerSteps, 0)
        let rowsBefore = try metric("trellis_compute_steps_total", "/v1/outline/rows")
        let requestsBefore = try metric("trellis_requests_total", "/v1/outline/rows", #",method="POST",status="200""#)
        let answer = try post(connection, "/v1/batch", batch([("/v1/outline/rows", flow), ("/v1/sections/toggle", drawer), ("/v1/outline/rows", flow)]))
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(entries(answer.body)?.map(\.status), [200, 200, 200])
        XCTAssertEqual(try metric("trellis_requests_total", "/v1/outline/rows", #",method="POST",status="200""#) - requestsBefore, 2)
        XCTAssertEqual(try metric("trellis_requests_total", "/v1/batch", #",method="POST",status="200""#), 1)
        XCTAssertEqual(try metric("trellis_compute_steps_total", "/v1/outline/rows") - rowsBefore, 2 * rowsSteps)
        // Rule "cost model": a batch does no more counted work than its entries alone.
        XCTAssertEqual(try metric("trellis_compute_steps_total", "/v1/batch"), 2 * rowsSteps + drawerSteps)
    }

    /// The request's deadline covers the whole batch: past it the batch is a 503, not a list of entries.
    func testTheDeadlineCoversTheWholeBatch() throws {
        let server = try server(ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection), requestTimeout: .milliseconds(1)))
        let texts = (0..<10_000).map { "\"label number \($0) of many\"" }.joined(separator: ",")
        let measure = Array(#"{"font":{"family":"DejaVu Sans","size":16},"texts":[\#(texts)]}"#.utf8)
        let response = try post(try server.connect(), "/v1/batch", batch([("/v1/text/measure", Array(#"{"texts":[]}"#.utf8)), ("/v1/text/measure", measure)]))
        XCTAssertEqual(response.status, 503, response.text.prefix(300).description)
        XCTAssertTrue(response.text.contains("limit of"), response.text)
    }

    /// The batch's working memory comes from the budget before it is parsed: a budget too small for it is a 503.
    func testWorkingMemoryOfTheWholeBatchComesFromTheBudget() throws {
        let flow = #"{"path":"/v1/flow/layout","body":{"containerWidth":300,"items":[{"width":40,"height":20}]}}"#
        let body = "{\"requests\":[" + Array(repeating: flow, count: 100).joined(separator: ",") + "]}"
        let tight = try server(ServiceConfiguration(memoryBudget: HTTPMemoryBudget(limit: 6 * body.utf8.count), context: FeatureContext(fonts: TestFonts.collection)))
        XCTAssertEqual(try tight.request("POST", "/v1/batch", json: body).status, 503)
        let roomy = try server(ServiceConfiguration(memoryBudget: HTTPMemoryBudget(limit: 64 << 20), context: FeatureContext(fonts: TestFonts.collection)))
        let answered = try roomy.request("POST", "/v1/batch", json: body)
        XCTAssertEqual(answered.status, 200)
        XCTAssertEqual(entries(answered.body)?.count, 100)
        // Everything reserved is given back once the answer has gone out.
        var inUse = -1
        for _ in 0..<100 {
            inUse = roomy.service.configuration.memoryBudget?.inUse ?? -1
            if inUse == 0 { break }
            usleep(10_000)
        }
        XCTAssertEqual(inUse, 0)
    }
}

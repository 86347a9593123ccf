import Foundation
import XCTest
import TrellisTestSupport

/// Hostile JSON bodies sent to every POST endpoint over real sockets. After every case the
/// server still answers /healthz, nothing is a 5xx, and every 4xx is problem+json.
final class HostileBodyTests: HostileTestCase {
    /// Sends `body` to every endpoint and checks the status each one answers.
    private func sendToEvery(
        _ server: LiveServer, _ name: String, expecting expected: [String: Int]? = nil, status: Int? = nil,
        line: UInt = #line, _ body: (Hostile.Endpoint) -> [UInt8]
    ) throws {
        for endpoint in Hostile.endpoints {
            let response = try Hostile.post(server, endpoint.path, body(endpoint))
            let want = expected?[endpoint.path] ?? status
            if let want {
                XCTAssertEqual(response.status, want, "\(name) → \(endpoint.path): \(response.text.prefix(300))", line: line)
            }
            assertSane(response, line: line)
            assertHealthy(server, line: line)
        }
    }

    func testValidBodiesAreAnswered() throws {
        let server = try Hostile.server()
        try sendToEvery(server, "valid", status: 200) { Array($0.valid.utf8) }
    }

    func testEmptyBodyIs400() throws {
        let server = try Hostile.server()
        try sendToEvery(server, "empty", status: 400) { _ in [] }
    }

    /// A POST with neither Content-Length nor Transfer-Encoding has an empty body.
    func testBodyWithoutAnyLengthIsEmpty() throws {
        let server = try Hostile.server()
        for endpoint in Hostile.endpoints {
            let connection = try server.connect()
            try connection.send("POST \(endpoint.path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n")
            assertProblem(try connection.readResponse(), 400)
            assertHealthy(server)
        }
    }

    func testNonObjectDocumentsAre422AtTheRoot() throws {
        let server = try Hostile.server()
        for document in ["null", "[]", #""a string""#, "0", "true"] {
            for endpoint in Hostile.endpoints {
                let response = try Hostile.post(server, endpoint.path, document)
                assertProblem(response, 422)
                let pointers = (response.json["errors"] as? [[String: String]] ?? []).compactMap { $0["pointer"] }
                XCTAssertEqual(pointers, [""], "\(document) → \(endpoint.path)")
                assertHealthy(server)
            }
        }
    }

    func testTruncatedJSONIs400() throws {
        let server = try Hostile.server()
        for cut in [1, 2, 0.5, 0.9] as [Double] {
            try sendToEvery(server, "truncated \(cut)", status: 400) { endpoint in
                let bytes = Array(endpoint.valid.utf8)
                let keep = cut < 1 ? Int(Double(bytes.count) * cut) : bytes.count - Int(cut)
                return Array(bytes[0..<keep])
            }
        }
    }

    func testInvalidUTF8Is400() throws {
        let server = try Hostile.server()
        // A lone continuation byte, an overlong '/', a surrogate, a truncated sequence, 0xFF.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xFF]] {
            try sendToEvery(server, "utf8 \(bad)", status: 400) { endpoint in
                // Inside the first key, which every template opens with `{"`.
                Array(#"{""#.utf8) + bad + Array(endpoint.valid.utf8.dropFirst(2))
            }
        }
    }

    func testNULBytesAre400() throws {
        let server = try Hostile.server()
        try sendToEvery(server, "NUL in a string", status: 400) { Array(#"{""#.utf8) + [0] + Array($0.valid.utf8.dropFirst(2)) }
        try sendToEvery(server, "NUL after the document", status: 400) { Array($0.valid.utf8) + [0] }
        try sendToEvery(server, "NUL before the document", status: 400) { [0] + Array($0.valid.utf8) }
        // The escaped form is a valid string (and an unknown member here).
        try sendToEvery(server, "escaped NUL", status: 200) { Array(#"{"\u0000":1,"#.utf8) + Array($0.valid.utf8.dropFirst()) }
    }

    /// RFC 8259 §8.1: a parser may ignore a byte-order mark; Trellis refuses it (docs/limits.md).
    func testByteOrderMarkIs400() throws {
        let server = try Hostile.server()
        try sendToEvery(server, "BOM", status: 400) { [0xEF, 0xBB, 0xBF] + Array($0.valid.utf8) }
    }

    /// With duplicate keys the last one wins (openapi.yaml says so): a wrong first value is ignored.
    func testDuplicateKeysTakeTheLastValue() throws {
        let server = try Hostile.server()
        try sendToEvery(server, "duplicate key", status: 200) { endpoint in
            Array(#"{"\#(endpoint.duplicatedKey)":"wrong","#.utf8) + Array(endpoint.valid.utf8.dropFirst())
        }
        try sendToEvery(server, "duplicate key, wrong last", status: 422) { endpoint in
            Array(endpoint.valid.utf8.dropLast()) + Array(#","\#(endpoint.duplicatedKey)":"wrong"}"#.utf8)
        }
    }

    /// Numbers beyond a double and the non-JSON NaN/Infinity are 400; integers beyond 64 bits are
    /// read as doubles (as JavaScript does), tiny and negative-zero numbers as zero, and each
    /// endpoint judges them.
    func testNumbersAtTheEdges() throws {
        let server = try Hostile.server()
        for literal in ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "+1", "01", "1.", ".5", "0x10"] {
            try sendToEvery(server, literal, status: 400) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: literal).utf8) }
        }
        let zeroAnswers = [
            "/v1/outline/expansion": 200, "/v1/outline/rows": 200, "/v1/flow/layout": 200,
            "/v1/sections/toggle": 422, "/v1/drawer/state": 422,
        ]
        try sendToEvery(server, "-0", expecting: zeroAnswers) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: "-0").utf8) }
        // 1e-400 underflows to 0.0, an integral number: the same answers as -0.
        try sendToEvery(server, "1e-400", expecting: zeroAnswers) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: "1e-400").utf8) }
        for literal in ["18446744073709551616", "-9223372036854775809", "18446744073709551615", "9223372036854775807",
                        "-9223372036854775808", "1e308", "4.9e-324"] {
            try sendToEvery(server, literal) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: literal).utf8) }
        }
    }

    /// A 10 MiB string where a number or id belongs: read in full (the limit is raised to 12 MiB
    /// here) and refused without echoing it (ids are at most 4096 bytes).
    func testTenMebibyteString() throws {
        let server = try Hostile.server(maxBodyBytes: 12 << 20)
        let huge = "\"" + String(repeating: "x", count: 10 << 20) + "\""
        let expected = [
            "/v1/outline/expansion": 422, "/v1/outline/rows": 422, "/v1/flow/layout": 422,
            "/v1/sections/toggle": 422, "/v1/drawer/state": 422,
        ]
        try sendToEvery(server, "10 MiB string", expecting: expected) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: huge).utf8) }
        // Past the configured limit, the same body is a 413.
        let small = try Hostile.server()
        try sendToEvery(small, "10 MiB string over the limit", status: 413) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: huge).utf8) }
    }

    /// A million tiny elements where each endpoint expects its main list (or an object).
    func testArrayOfAMillionTinyElements() throws {
        let server = try Hostile.server(maxBodyBytes: 4 << 20)
        let million = "[" + Array(repeating: "0", count: 1_000_000).joined(separator: ",") + "]"
        try sendToEvery(server, "a million elements", status: 422) { Array($0.arrayTemplate.replacingOccurrences(of: "A", with: million).utf8) }
        assertNoRequestsLeft(server)
    }

    func testNestingOfAHundredThousandLevelsIs400() throws {
        let server = try Hostile.server(maxBodyBytes: 1 << 20)
        for open in ["[", #"{"a":"#] {
            let close = open == "[" ? "]" : "}"
            let deep = String(repeating: open, count: 100_000) + "0" + String(repeating: close, count: 100_000)
            try sendToEvery(server, "nesting \(open)", status: 400) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: deep).utf8) }
            // Unclosed, too.
            try sendToEvery(server, "unclosed nesting \(open)", status: 400) { _ in Array(String(repeating: open, count: 100_000).utf8) }
        }
    }

    /// Just within the nesting limit the document parses and each endpoint answers for itself.
    func testNestingAtTheLimitIsParsed() throws {
        let server = try Hostile.server()
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        try sendToEvery(server, "nesting 1000") { Array($0.numberTemplate.replacingOccurrences(of: "N", with: deep).utf8) }
    }

    /// Control characters, lone surrogate escapes and other odd but well-formed strings.
    func testOddStringsAreReadOrRefusedCleanly() throws {
        let server = try Hostile.server()
        for odd in [#""\ud800""#, #""\udc00\ud800""#, #""\u0000""#, #""\uFFFF""#, #""🎉\u200d\u202e""#, "\"\u{7F}\"", #""\/\b\f\n\r\t""#] {
            try sendToEvery(server, odd) { Array($0.numberTemplate.replacingOccurrences(of: "N", with: odd).utf8) }
        }
        for control in [0x01, 0x0A, 0x1F] as [UInt8] {
            let raw = "\"a" + String(UnicodeScalar(control)) + "\""
            try sendToEvery(server, "raw control \(control)", status: 400) {
                Array($0.numberTemplate.replacingOccurrences(of: "N", with: raw).utf8)
            }
        }
    }
}

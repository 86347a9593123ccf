import Foundation
import HTTPServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI

/// Request/answer pairs recorded from the service, replayed through the router: a refactoring
/// must keep every answer byte for byte (status, content type and body).
///
/// The requests are the fuzz seeds (fuzz/corpus) plus a sample of inputs the fuzzer found.
/// `TRELLIS_RECORD_ANSWERS=1 swift test --filter AnswerCorpusTests` answers them anew into answers.jsonl,
/// keeping every recorded request and adding new seeds (do that only when a behaviour change is intended,
/// and say so in the commit).
final class AnswerCorpusTests: XCTestCase {
    struct Pair: Codable {
        let path: String
        /// Base64 of the request body.
        let request: String
        let status: Int
        let contentType: String?
        /// Base64 of the answer body.
        let answer: String
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let file = directory.appendingPathComponent("answers.jsonl")
    static let root = directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let endpoints = Features.paths.map { (Features.shortName(of: $0), $0) }

    static func answer(_ service: TrellisService, _ path: String, _ body: [UInt8]) -> TestResponse {
        var headers = TrellisHeaders()
        headers.add("Content-Type", "application/json")
        // Parsed in place, as the server does, with simdjson's padding after the body.
        let padded = body + [UInt8](repeating: 0, count: 64)
        let response = padded.withUnsafeBytes { raw in
            service.handle(TrellisRequest(
                method: "POST", path: path, headers: headers,
                body: UnsafeRawBufferPointer(rebasing: raw[0..<body.count]), bodyPadding: 64))
        }
        return TestResponse(
            status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) }, body: response.body.bytes)
    }

    func testEveryRecordedAnswerIsUnchanged() throws {
        // With the default fonts, so that text measurement and flows of labels are pinned too.
        let service = TrellisService(configuration: ServiceConfiguration(fonts: TextFonts(LoadedFonts.collection)))
        if ProcessInfo.processInfo.environment["TRELLIS_RECORD_ANSWERS"] == "1" { try record(service) }
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 100)
        let decoder = JSONDecoder()
        for line in lines {
            let pair = try decoder.decode(Pair.self, from: Data(line.utf8))
            let request = [UInt8](Data(base64Encoded: pair.request) ?? Data())
            let response = Self.answer(service, pair.path, request)
            let expected = [UInt8](Data(base64Encoded: pair.answer) ?? Data())
            let context = "\(pair.path) \(String(decoding: request.prefix(120), as: UTF8.self))"
            XCTAssertEqual(response.status, pair.status, context)
            XCTAssertEqual(response.header("Content-Type"), pair.contentType, context)
            XCTAssertTrue(response.body == expected, "\(context)\nwant \(String(decoding: expected.prefix(300), as: UTF8.self))\ngot  \(response.text.prefix(300))")
        }
    }

    /// The requests already recorded (kept, in order), then seeds in fuzz/corpus/<endpoint> and up to 150 fuzzer
    /// finds per endpoint from .build/fuzz-work that are not among them; every one answered anew.
    private func record(_ service: TrellisService) throws {
        let manager = FileManager.default
        var requests: [(path: String, body: [UInt8])] = []
        var seen = Set<String>()
        func add(_ path: String, _ body: [UInt8]) {
            guard body.count <= 16 << 10, seen.insert(path + " " + Data(body).base64EncodedString()).inserted else { return }
            requests.append((path, body))
        }
        let decoder = JSONDecoder()
        for line in ((try? String(contentsOf: Self.file, encoding: .utf8)) ?? "").split(separator: "\n") {
            let pair = try decoder.decode(Pair.self, from: Data(line.utf8))
            add(pair.path, [UInt8](Data(base64Encoded: pair.request) ?? Data()))
        }
        for (name, path) in Self.endpoints {
            for (folder, cap) in [("fuzz/corpus/\(name)", Int.max), (".build/fuzz-work/corpus/\(name)", 150)] {
                let directory = Self.root.appendingPathComponent(folder)
                let names = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
                for file in names.prefix(cap) {
                    add(path, [UInt8](try Data(contentsOf: directory.appendingPathComponent(file))))
                }
            }
        }
        var out = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for (path, body) in requests {
            let response = Self.answer(service, path, body)
            let pair = Pair(
                path: path, request: Data(body).base64EncodedString(), status: response.status,
                contentType: response.header("Content-Type"), answer: Data(response.body).base64EncodedString())
            out += String(decoding: try encoder.encode(pair), as: UTF8.self) + "\n"
        }
        try out.write(to: Self.file, atomically: true, encoding: .utf8)
    }
}

import Foundation
import TrellisServer
import TrellisHTTP
import XCTest
@testable import TrellisAPI
import TrellisSamples
import TrellisTestSupport

/// Request/answer pairs recorded from the service, replayed through the router: a refactoring
/// must keep every answer byte for byte (status, content type and body).
///
/// The requests are every feature's samples (Sources/TrellisAPI/<Feature>/samples.json, recipes at the seed size
/// with salt 0: the same bytes as their fuzz seeds), the other fuzz seeds (fuzz/corpus: openapi.yaml's examples,
/// malformed JSON), a sample of inputs the fuzzer found, and requests built from a sample of the Chromium text
/// fixtures (Tests/TrellisTextTests/Fixtures): flows of labels, measurements and paragraph layouts, answered with
/// the default fonts.
/// `TRELLIS_RECORD_ANSWERS=1 swift test --filter AnswerCorpusTests` answers them anew into answers.jsonl,
/// keeping every recorded request and adding new samples and seeds (do that only when a behaviour change is
/// intended or new samples are to be pinned, and say so in the commit).
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
    /// The longest answer a new request is recorded with (the file holds every answer whole).
    static let longestAnswer = 128 << 10

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
        let service = TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
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

    /// Every sample of a registered feature (its fuzz seed's bytes) is pinned: a new sample is recorded with
    /// TRELLIS_RECORD_ANSWERS=1. A sample past the corpus's bounds (a body over 16 KiB, an answer over 128 KiB) is not.
    func testEverySampleIsRecorded() throws {
        let service = TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection)))
        let decoder = JSONDecoder()
        var recorded = Set<String>()
        for line in try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n") {
            let pair = try decoder.decode(Pair.self, from: Data(line.utf8))
            recorded.insert(pair.path + " " + pair.request)
        }
        var missing: [String] = []
        for (path, body, name) in try Self.sampleRequests(service) where !recorded.contains(path + " " + Data(body).base64EncodedString()) {
            missing.append("\(path) \(name)")
        }
        XCTAssertEqual(missing, [], "samples without a recorded answer (TRELLIS_RECORD_ANSWERS=1 swift test --filter AnswerCorpusTests)")
    }

    /// The registered features' samples within the corpus's bounds, as their fuzz seeds write them.
    static func sampleRequests(_ service: TrellisService) throws -> [(path: String, body: [UInt8], name: String)] {
        let samples = try SampleSet.load()
        var requests: [(path: String, body: [UInt8], name: String)] = []
        for (_, path) in endpoints {
            for sample in samples.of(path) {
                let body = try samples.body(sample, size: SampleSet.small, salt: 0, style: .python)
                guard body.count <= 16 << 10, answer(service, path, body).body.count <= longestAnswer else { continue }
                requests.append((path, body, sample.name))
            }
        }
        return requests
    }

    /// The requests already recorded (kept, in order), then the features' samples, the seeds in
    /// fuzz/corpus/<endpoint>, up to 150 fuzzer finds per endpoint from .build/fuzz-work and the text fixtures'
    /// requests that are not among them; every one answered anew.
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
        let kept = requests.count
        for (path, body, _) in try Self.sampleRequests(service) { add(path, body) }
        for (name, path) in Self.endpoints {
            for (folder, cap) in [("fuzz/corpus/\(name)", Int.max), (".build/fuzz-work/corpus/\(name)", 150)] {
                let directory = Self.root.appendingPathComponent(folder)
                let names = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
                for file in names.prefix(cap) {
                    add(path, [UInt8](try Data(contentsOf: directory.appendingPathComponent(file))))
                }
            }
        }
        for (path, body) in try Self.fixtureRequests() { add(path, body) }
        var out = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for (i, (path, body)) in requests.enumerated() {
            let response = Self.answer(service, path, body)
            // A new request is pinned when its answer is within the corpus's bound.
            guard i < kept || response.body.count <= Self.longestAnswer else { continue }
            let pair = Pair(
                path: path, request: Data(body).base64EncodedString(), status: response.status,
                contentType: response.header("Content-Type"), answer: Data(response.body).base64EncodedString())
            out += String(decoding: try encoder.encode(pair), as: UTF8.self) + "\n"
        }
        try out.write(to: Self.file, atomically: true, encoding: .utf8)
    }

    /// Requests from every 6th flow-of-labels fixture, 20 of the measurement fixtures' fonts (up to 8 texts each)
    /// and every 100th paragraph at its first and last fixture width: fixed by the fixture files alone.
    static func fixtureRequests() throws -> [(path: String, body: [UInt8])] {
        let fixtures = root.appendingPathComponent("Tests/TrellisTextTests/Fixtures")
        func cases(_ name: String) throws -> [[String: Any]] {
            let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
            // The first line describes the file (generator, browser, count).
            return try text.split(separator: "\n").dropFirst().map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            }
        }
        func json(_ value: Any) throws -> [UInt8] {
            [UInt8](try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
        }
        var requests: [(path: String, body: [UInt8])] = []
        for (i, flow) in try cases("flow.jsonl").enumerated() where i % 6 == 0 {
            if let request = flow["request"] { requests.append(("/v1/flow/layout", try json(request))) }
        }
        var fonts: [String] = [], texts: [String: [String]] = [:], faces: [String: [String: Any]] = [:]
        for measured in try cases("measure.jsonl") {
            let face: [String: Any] = ["family": measured["family"] ?? "", "size": measured["size"] ?? 0,
                                       "weight": measured["weight"] ?? 400, "style": measured["style"] ?? "normal"]
            let key = String(decoding: try json(face), as: UTF8.self)
            if faces[key] == nil { fonts.append(key); faces[key] = face }
            if let text = measured["text"] as? String, texts[key, default: []].count < 8 { texts[key, default: []].append(text) }
        }
        for key in stride(from: 0, to: fonts.count, by: max(1, fonts.count / 20)).prefix(20).map({ fonts[$0] }) {
            requests.append(("/v1/text/measure", try json(["font": faces[key] ?? [:], "texts": texts[key] ?? []])))
        }
        for (i, paragraph) in try cases("paragraphs.jsonl").enumerated() where i % 100 == 0 {
            let layouts = paragraph["layouts"] as? [[String: Any]] ?? []
            for layout in [layouts.first, layouts.last].compactMap({ $0 }) {
                requests.append(("/v1/text/layout", try json([
                    "font": paragraph["font"] ?? [:], "texts": [paragraph["text"] ?? ""], "width": layout["width"] ?? 0,
                ])))
            }
        }
        return requests
    }
}

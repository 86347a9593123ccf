import Foundation
import TrellisAPI
import TrellisSamples
import XCTest

/// Every registered feature (each path of `Features.endpoints`) has the satellites of CONTRIBUTING.md's checklist,
/// read from the files themselves: openapi.yaml, the Swift client, the JavaScript client, the playground and the
/// samples. A new endpoint fails here with the list of what it still lacks and where each goes.
final class FeatureSatellitesTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The paths under `paths:` in openapi.yaml that have a `post:` operation.
    static func specPosts() throws -> Set<String> {
        var posts = Set<String>(), current: String?
        for line in try text("openapi.yaml").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                current = String(line.dropFirst(2).dropLast())
            } else if !line.hasPrefix(" "), !line.isEmpty {
                current = nil
            } else if line == "    post:", let path = current {
                posts.insert(path)
            }
        }
        return posts
    }

    /// The Swift client's request types by path (`static let path = "…"` in a type conforming to
    /// TrellisEndpointRequest), and the types some TrellisClient method takes as its request.
    static func swiftClient() throws -> (types: [String: String], called: Set<String>) {
        let folder = repository.appendingPathComponent("Sources/TrellisClient")
        var types: [String: String] = [:], called = Set<String>()
        let declaration = try NSRegularExpression(pattern: #"struct (\w+): TrellisEndpointRequest[^{]*\{[^}]*?static let path = "([^"]+)""#)
        let method = try NSRegularExpression(pattern: #"func \w+\(\s*_ \w+: (\w+)"#)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let range = NSRange(source.startIndex..., in: source)
            for match in declaration.matches(in: source, range: range) {
                guard let type = Range(match.range(at: 1), in: source), let path = Range(match.range(at: 2), in: source) else { continue }
                types[String(source[path])] = String(source[type])
            }
            for match in method.matches(in: source, range: range) {
                if let type = Range(match.range(at: 1), in: source) { called.insert(String(source[type])) }
            }
        }
        return (types, called)
    }

    /// The paths in the JavaScript client's `endpoints` map.
    static func javaScriptEndpoints() throws -> Set<String> {
        let source = try text("clients/js/trellis.mjs")
        guard let start = source.range(of: "export const endpoints = Object.freeze({"),
              let end = source[start.upperBound...].range(of: "});")
        else { return [] }
        return quotedPaths(String(source[start.upperBound..<end.lowerBound]))
    }

    /// The paths the playground's panels call (each panel's `endpoints: [...]`).
    static func playgroundEndpoints() throws -> Set<String> {
        let page = try text("Sources/TrellisAPI/Resources/playground.html")
        let list = try NSRegularExpression(pattern: #"\bendpoints: \[([^\]]*)\]"#)
        var paths = Set<String>()
        for match in list.matches(in: page, range: NSRange(page.startIndex..., in: page)) {
            if let inside = Range(match.range(at: 1), in: page) { paths.formUnion(quotedPaths(String(page[inside]))) }
        }
        return paths
    }

    static func quotedPaths(_ text: String) -> Set<String> {
        Set(text.split(whereSeparator: { $0 == "'" || $0 == "\"" }).map(String.init).filter { $0.hasPrefix("/") })
    }

    /// What each registered path lacks, one line per satellite, saying where it goes.
    static func missingSatellites() throws -> [String: [String]] {
        let posts = try specPosts(), client = try swiftClient(), javaScript = try javaScriptEndpoints()
        let playground = try playgroundEndpoints(), samples = try SampleSet.load()
        var missing: [String: [String]] = [:]
        for path in Features.paths {
            var lacks: [String] = []
            if !posts.contains(path) {
                lacks.append("openapi.yaml: the operation (`  \(path):` under `paths:`, with `post:`)")
            }
            if let type = client.types[path] {
                if !client.called.contains(type) {
                    lacks.append("the Swift client: a TrellisClient method taking `_ request: \(type)` (Sources/TrellisClient)")
                }
            } else {
                lacks.append(
                    "the Swift client: a request type conforming to TrellisEndpointRequest with `static let path = \"\(path)\"`, and its method (Sources/TrellisClient)")
            }
            if !javaScript.contains(path) {
                lacks.append("the JavaScript client: its method in `endpoints` (clients/js/trellis.mjs, and its types in trellis.d.ts)")
            }
            if !playground.contains(path) {
                lacks.append("the playground: a panel whose `endpoints` name \(path) (Sources/TrellisAPI/Resources/playground.html), and its test_<panel>_panel in scripts/playground/browser_test.py")
            }
            let own = samples.of(path)
            if own.isEmpty {
                lacks.append("the samples: Sources/TrellisAPI/<Feature>/samples.json listing \(path) in `paths` (excluded from TrellisAPI in Package.swift)")
            }
            if (try? samples.fuzzerNormal(for: path)) == nil {
                lacks.append("the samples: one normal recipe marked \"fuzzer\" (the fuzz target's yardstick)")
            }
            if !own.contains(where: { $0.kind == .edge }) {
                lacks.append("the samples: edge cases (kind \"edge\": other forms of the request, limits, problems)")
            }
            if !own.contains(where: { $0.kind == .cost }) {
                lacks.append("the samples: crafted cost cases (kind \"cost\")")
            }
            if !lacks.isEmpty { missing[path] = lacks }
        }
        return missing
    }

    func testEveryRegisteredFeatureHasEverySatellite() throws {
        let missing = try Self.missingSatellites()
        let report = missing.keys.sorted().map { path in
            "\(path) lacks:\n" + missing[path, default: []].map { "  - \($0)" }.joined(separator: "\n")
        }.joined(separator: "\n")
        XCTAssertTrue(missing.isEmpty, "A registered feature lacks satellites (CONTRIBUTING.md, the feature checklist):\n\(report)")
    }

    /// The readers find what is there: each satellite lists every path the registry has, and nothing is read as empty.
    func testTheReadersFindTheSatellites() throws {
        XCTAssertTrue(Set(Features.paths).isSubset(of: try Self.specPosts()))
        XCTAssertTrue(try Self.javaScriptEndpoints().contains(Features.batchPath))
        XCTAssertEqual(try Self.swiftClient().types[Features.batchPath], "BatchRequest")
        XCTAssertTrue(try Self.swiftClient().called.contains("FlowLayoutRequest"))
        XCTAssertTrue(Set(Features.paths).isSubset(of: try Self.playgroundEndpoints()))
    }
}

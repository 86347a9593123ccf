import Foundation
import TrellisClient
import TrellisCore
import XCTest
import TrellisTestSupport

/// docs/clients.md's Swift snippet: its calls compile (ReadmeSnippet.swift), run, and agree with each other.
final class ReadmeSnippetTests: XCTestCase {
    static let tags: [(id: String, width: Double)] = [
        ("swift", 62), ("swiftui", 84), ("uikit", 66), ("xcode", 68), ("apple", 66), ("ios", 50), ("ipad", 56),
    ]

    func testServiceAndDeviceGiveTheSameChips() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let remote = try await chipsFromService(server.client(), Self.tags, containerWidth: 300)
        let local = chipsOnDevice(Self.tags, containerWidth: 300)
        XCTAssertEqual(remote.items.map(\.id), Self.tags.map { .string($0.id) })
        XCTAssertEqual(
            remote.items.map { [$0.x, $0.y, $0.width, $0.height] },
            local.items.map { [$0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height] })
        XCTAssertEqual(remote.items.map(\.row), local.items.map(\.row))
        XCTAssertEqual(remote.size, .init(width: local.size.width, height: local.size.height))
        XCTAssertEqual(remote.items.last?.x, 212)
    }

    func testReadmeShowsTheseCallsVerbatim() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("docs/clients.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReadmeSnippet.swift"), encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// README: begin\n"))
        let end = try XCTUnwrap(source.range(of: "// README: end"))
        let snippet = String(source[begin.upperBound..<end.lowerBound])
        let swiftSection = try XCTUnwrap(readme.range(of: "## Swift"))
        XCTAssertTrue(readme[swiftSection.upperBound...].contains(snippet), "docs/clients.md's Swift snippet differs from ReadmeSnippet.swift")
    }
}

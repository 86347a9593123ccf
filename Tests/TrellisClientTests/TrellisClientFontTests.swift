import Foundation
import TrellisAPI
import TrellisClient
import XCTest
import TrellisTestSupport

/// Uploaded fonts through TrellisClient: addFont stores a file with POST /v1/fonts and keeps its bytes, requests
/// name it in fontFaces, and a request that finds it not stored (another replica, a restart) uploads it again and
/// is sent again.
final class TrellisClientFontTests: XCTestCase {
    typealias Client = TrellisClient

    static var woff2: Data {
        get throws {
            try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("TrellisAPITests/Fonts/Fixtures/inter-latin.woff2"))
        }
    }

    private func server() throws -> LiveServer {
        try LiveServer(service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection, fontLibrary: FontLibrary())))
    }

    func testAFontAddedOnceIsUploadedAgainWhereItIsNotStored() async throws {
        let first = try server()
        let client = first.client()
        let metadata = try await client.addFont(try Self.woff2)
        XCTAssertTrue(metadata.id.hasPrefix("sha256-"))
        XCTAssertEqual(metadata.format, "woff2")
        XCTAssertEqual(metadata.faces.first?.axes.map(\.tag), ["wght", "slnt"])
        XCTAssertEqual(client.fontFiles.ids, [metadata.id])
        let request = Client.TextMeasureRequest(
            font: .init(family: "Inter, DejaVu Sans", size: 16, weight: 450, featureSettings: #""tnum""#),
            fontFaces: [.init(family: "Inter", src: metadata.id, weight: "100 900")], texts: ["Swift 1111"])
        let measured = try await client.textMeasure(request)
        XCTAssertEqual(measured.texts.count, 1)
        // Another server (a replica, or this one restarted) has no fonts: the client uploads the file and retries.
        let second = try server()
        var elsewhere = second.client()
        elsewhere = Client(baseURL: elsewhere.baseURL, timeout: 10, fontFiles: client.fontFiles)
        let again = try await elsewhere.textMeasure(request)
        XCTAssertEqual(again, measured)
        let stored = try await elsewhere.fontMetadata(metadata.id)
        XCTAssertEqual(stored, metadata)
    }

    /// A batch whose entry names a font the server does not store: the client uploads it and sends the batch again,
    /// and every entry is answered as alone.
    func testABatchEntryNamingAFontNotStoredIsSentAgainAfterTheUpload() async throws {
        let first = try server()
        let client = first.client()
        let metadata = try await client.addFont(try Self.woff2)
        let measure = Client.TextMeasureRequest(
            font: .init(family: "Inter", size: 16, weight: 450), fontFaces: [.init(family: "Inter", src: metadata.id, weight: "100 900")],
            texts: ["Swift"])
        let plain = Client.TextMeasureRequest(font: .init(family: "DejaVu Sans", size: 16), texts: ["Swift"])
        let second = try server()
        let elsewhere = Client(baseURL: second.client().baseURL, timeout: 10, fontFiles: client.fontFiles)
        let answers = try await elsewhere.batch([.init(plain), .init(measure)])
        XCTAssertEqual(answers.map(\.status), [200, 200])
        let alone = try await client.textMeasure(measure)
        XCTAssertEqual(try answers[1].get(Client.TextMeasureResponse.self), alone)
        // A font the client was not given: the entry's problem is its answer, the batch is not sent again.
        var missing = measure
        missing.fontFaces = [.init(family: "Inter", src: "sha256-" + String(repeating: "5e", count: 32))]
        let refused = try await elsewhere.batch([.init(plain), .init(missing)])
        XCTAssertEqual(refused.map(\.status), [200, 422])
    }

    func testAFontTheClientWasNotGivenIsTheProblemOfItsType() async throws {
        let server = try server()
        let missing = "sha256-" + String(repeating: "0f", count: 32)
        var layout = Client.TextLayoutRequest(font: .init(family: "Mine", size: 16), texts: ["a"], width: 100)
        layout.fontFaces = [.init(family: "Mine", src: missing)]
        do {
            _ = try await server.client().textLayout(layout)
            XCTFail("answered")
        } catch {
            XCTAssertEqual(error.problem?.type, Client.fontNotStored)
            XCTAssertEqual(error.problem?.errors.map(\.pointer), ["/fontFaces/0/src"])
        }
        do {
            _ = try await server.client().fontMetadata(missing)
            XCTFail("answered")
        } catch {
            XCTAssertEqual(error.problem?.status, 404)
        }
    }
}

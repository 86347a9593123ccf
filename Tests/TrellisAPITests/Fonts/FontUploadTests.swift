import Foundation
import XCTest
@testable import TrellisAPI
import TrellisHTTP
import TrellisServer
import TrellisText
import TrellisTestSupport

/// Uploads over a real socket: PUT /v1/fonts/{id} checks the id and is idempotent, POST /v1/fonts finds the id,
/// GET and HEAD answer a stored font's metadata or 404, a body past --max-font-bytes is a 413, a file OTS refuses is a
/// 422 with its reason, the store evicts its least recently used font, and a directory keeps fonts across a restart.
final class FontUploadTests: XCTestCase {
    private func server(_ library: FontLibrary = FontLibrary(), maxBodyBytes: Int = 8 << 20) throws -> LiveServer {
        var http = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        http.maxBodyBytes = maxBodyBytes
        return try LiveServer(
            http: http,
            service: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection, fontLibrary: library)))
    }

    /// One request with a binary body on a fresh connection.
    private func send(
        _ server: LiveServer, _ method: String, _ path: String, _ body: [UInt8] = [], type: String? = "font/woff2"
    ) throws -> TestResponse {
        let connection = try server.connect()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        head += "\r\n"
        _ = try connection.send(Array(head.utf8) + body)
        return try connection.readResponse(method: method)
    }

    private static func fixture(_ name: String) throws -> [UInt8] { try FontLibraryTests.fixture(name) }
    private static func id(_ bytes: [UInt8]) throws -> String { try FontLibraryTests.id(of: bytes).description }

    func testPutStoresAFontUnderItsHashOnceAndAnswersItsMetadata() throws {
        let server = try server()
        let bytes = try Self.fixture("inter-latin.woff2")
        let id = try Self.id(bytes)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(id)").status, 404)
        let created = try send(server, "PUT", "/v1/fonts/\(id)", bytes)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.header("Location"), "/v1/fonts/\(id)")
        XCTAssertEqual(created.header("Content-Type"), "application/json")
        XCTAssertEqual(created.json["id"] as? String, id)
        XCTAssertEqual(created.json["format"] as? String, "woff2")
        XCTAssertEqual(created.json["size"] as? Int, bytes.count)
        let face = try XCTUnwrap((created.json["faces"] as? [[String: Any]])?.first)
        XCTAssertEqual(face["family"] as? String, "Inter")
        XCTAssertEqual(face["weight"] as? Int, 400)
        XCTAssertEqual(face["style"] as? String, "normal")
        XCTAssertEqual(face["stretch"] as? String, "100%")
        let axes = try XCTUnwrap(face["axes"] as? [[String: Any]])
        XCTAssertEqual(axes.map { $0["tag"] as? String }, ["wght", "slnt"])
        XCTAssertEqual(axes.map { $0["min"] as? Double }, [100, -10])
        XCTAssertEqual(axes.map { $0["default"] as? Double }, [400, 0])
        XCTAssertEqual(axes.map { $0["max"] as? Double }, [900, 0])
        let instances = try XCTUnwrap(face["namedInstances"] as? [[String: Any]])
        XCTAssertTrue(instances.contains { $0["name"] as? String == "Bold" && $0["coordinates"] as? [Double] == [700, 0] }, "\(instances)")
        // Idempotent: the same bytes again are the font stored already.
        let again = try send(server, "PUT", "/v1/fonts/\(id)", bytes)
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(again.body, created.body)
        let metadata = try send(server, "GET", "/v1/fonts/\(id)")
        XCTAssertEqual(metadata.status, 200)
        XCTAssertEqual(metadata.body, created.body)
        XCTAssertEqual(metadata.header("Cache-Control"), "no-store")
        let head = try send(server, "HEAD", "/v1/fonts/\(id)")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, [])
    }

    func testPutToAnotherIdIsA422NamingTheRightOne() throws {
        let server = try server()
        let bytes = try Self.fixture("inter-latin.ttf")
        let wrong = try Self.id(Array(bytes.dropLast()))
        let response = try send(server, "PUT", "/v1/fonts/\(wrong)", bytes, type: "font/ttf")
        XCTAssertEqual(response.status, 422, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertTrue((response.json["detail"] as? String)?.contains(try Self.id(bytes)) ?? false, response.text)
        XCTAssertEqual(try send(server, "GET", "/v1/fonts/\(wrong)").status, 404)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/sha256-XYZ", bytes, type: "font/ttf").status, 422)
    }

    func testPostFindsTheIdForClientsThatCannotHash() throws {
        let server = try server()
        let bytes = try Self.fixture("inter-latin.woff")
        let response = try send(server, "POST", "/v1/fonts", bytes, type: "application/octet-stream")
        XCTAssertEqual(response.status, 201, response.text)
        XCTAssertEqual(response.json["id"] as? String, try Self.id(bytes))
        XCTAssertEqual(response.json["format"] as? String, "woff")
        XCTAssertEqual(try send(server, "POST", "/v1/fonts", bytes, type: "font/woff").status, 200)
        // GET /v1/fonts is still the listing of the installed faces.
        XCTAssertNotNil(try send(server, "GET", "/v1/fonts").json["fonts"])
    }

    func testUnknownIdsAreNotFound() throws {
        let server = try server()
        XCTAssertEqual(try send(server, "GET", "/v1/fonts/sha256-" + String(repeating: "0", count: 64)).status, 404)
        XCTAssertEqual(try send(server, "GET", "/v1/fonts/not-an-id").status, 404)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/not-an-id").status, 404)
        let delete = try send(server, "DELETE", "/v1/fonts/sha256-" + String(repeating: "0", count: 64))
        XCTAssertEqual(delete.status, 405)
        XCTAssertEqual(delete.header("Allow"), "GET, HEAD, PUT, OPTIONS")
    }

    func testAFilePastTheLimitIs413() throws {
        let bytes = try Self.fixture("inter-latin.woff2")
        let server = try server(FontLibrary(maxFontBytes: bytes.count - 1))
        let response = try send(server, "PUT", "/v1/fonts/\(try Self.id(bytes))", bytes)
        XCTAssertEqual(response.status, 413, response.text)
        XCTAssertTrue((response.json["detail"] as? String)?.contains("--max-font-bytes") ?? false, response.text)
        // Past --max-body-bytes the transport refuses it before reading it.
        let small = try self.server(FontLibrary(), maxBodyBytes: 1024)
        XCTAssertEqual(try send(small, "POST", "/v1/fonts", bytes).status, 413)
    }

    func testAFontOTSRefusesIsA422WithItsReason() throws {
        let server = try server()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf")))
        let response = try send(server, "PUT", "/v1/fonts/\(try Self.id(bytes))", bytes, type: "font/ttf")
        XCTAssertEqual(response.status, 422, response.text)
        XCTAssertTrue((response.json["detail"] as? String)?.contains("TSI3: zero-length table") ?? false, response.text)
        let json = try send(server, "POST", "/v1/fonts", Array(#"{"font":1}"#.utf8), type: "application/json")
        XCTAssertEqual(json.status, 415, json.text)
    }

    func testTheLeastRecentlyUsedFontIsEvicted() throws {
        let fonts = try ["inter-latin.ttf", "inter-latin.woff", "inter-latin.woff2"].map(Self.fixture)
        // Room for two of them: the sanitized TTF is about the same for the three.
        let sized = FontLibrary()
        var bytes = 0
        for font in fonts { if case .success(let stored) = font.withUnsafeBytes({ sized.store($0) }) { bytes = max(bytes, stored.font.memoryBytes) } }
        let server = try server(FontLibrary(storeBytes: 2 * bytes + bytes / 2))
        let ids = try fonts.map(Self.id)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[0])", fonts[0], type: "font/ttf").status, 201)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[1])", fonts[1], type: "font/woff").status, 201)
        XCTAssertEqual(try send(server, "GET", "/v1/fonts/\(ids[0])").status, 200)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[2])", fonts[2]).status, 201)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(ids[1])").status, 404)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(ids[0])").status, 200)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(ids[2])").status, 200)
    }

    func testADirectoryKeepsUploadsAcrossARestart() throws {
        let path = NSTemporaryDirectory() + "trellis-fonts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try Self.fixture("inter-latin.woff2")
        let id = try Self.id(bytes)
        do {
            let first = try server(FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path))))
            XCTAssertEqual(try send(first, "PUT", "/v1/fonts/\(id)", bytes).status, 201)
        }
        let library = FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path)))
        XCTAssertEqual(library.loadDirectory(), 1)
        let restarted = try server(library)
        let metadata = try send(restarted, "GET", "/v1/fonts/\(id)")
        XCTAssertEqual(metadata.status, 200, metadata.text)
        XCTAssertEqual(metadata.json["format"] as? String, "woff2")
        XCTAssertEqual(try send(restarted, "PUT", "/v1/fonts/\(id)", bytes).status, 200)
    }

    /// The whole loop a client runs: a request naming a font not stored is a 422 at its src, the client uploads
    /// it, and the same request then measures in it; a batch entry gets the same 422.
    func testARequestNamingAFontNotStoredSucceedsOnceItIsUploaded() throws {
        let server = try server()
        let bytes = try Self.fixture("inter-latin.woff2")
        let id = try Self.id(bytes)
        let measure = #"{"font":{"family":"Inter","size":16,"weight":450},"fontFaces":[{"family":"Inter","src":"\#(id)","weight":"100 900"}],"texts":["Swift"]}"#
        let missing = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(missing.status, 422, missing.text)
        XCTAssertEqual(missing.json["type"] as? String, ProblemTypes.fontNotStored)
        XCTAssertEqual((missing.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, ["/fontFaces/0/src"])
        let batch = try server.request("POST", "/v1/batch", json: #"{"requests":[{"path":"/v1/text/measure","body":\#(measure)}]}"#)
        let entry = try XCTUnwrap((batch.json["responses"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry["status"] as? Int, 422)
        XCTAssertEqual((entry["body"] as? [String: Any])?["type"] as? String, ProblemTypes.fontNotStored)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(id)", bytes).status, 201)
        let measured = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(measured.status, 200, measured.text)
        let width = try XCTUnwrap(((measured.json["texts"] as? [[String: Any]])?.first?["width"] as? NSNumber)?.doubleValue)
        XCTAssertGreaterThan(width, 30)
    }

    /// A request declaring the same rules again is answered from the resolution the store remembers, the same bytes;
    /// once the font is evicted the store forgets it, and the same request is the 422 at its src until the font is
    /// uploaded again.
    func testARememberedDeclarationIsForgottenWhenItsFontIsEvicted() throws {
        let fonts = try ["inter-latin.woff2", "inter-latin.ttf", "inter-latin.woff"].map(Self.fixture)
        let sized = FontLibrary()
        var bytes = 0
        for font in fonts { if case .success(let stored) = font.withUnsafeBytes({ sized.store($0) }) { bytes = max(bytes, stored.font.memoryBytes) } }
        // Room for two of them.
        let library = FontLibrary(storeBytes: 2 * bytes + bytes / 2)
        let server = try server(library)
        let ids = try fonts.map(Self.id)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[0])", fonts[0]).status, 201)
        let measure = #"{"font":{"family":"Inter","size":16,"weight":450},"fontFaces":[{"family":"Inter","src":"\#(ids[0])","weight":"100 900"}],"texts":["Hamburgefonstiv"]}"#
        let first = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertEqual(library.store.declaredCount, 1)
        let again = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(again.body, first.body)
        XCTAssertEqual(library.store.declaredCount, 1)
        // A remembered request counts as a use of its font: the other one is the least recently used.
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[1])", fonts[1], type: "font/ttf").status, 201)
        _ = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[2])", fonts[2], type: "font/woff").status, 201)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(ids[1])").status, 404)
        XCTAssertEqual(library.store.declaredCount, 1)
        // Evicting the declared font forgets what its declaration resolved to.
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[1])", fonts[1], type: "font/ttf").status, 201)
        XCTAssertEqual(try send(server, "HEAD", "/v1/fonts/\(ids[0])").status, 404)
        XCTAssertEqual(library.store.declaredCount, 0)
        let evicted = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(evicted.status, 422, evicted.text)
        XCTAssertEqual(evicted.json["type"] as? String, ProblemTypes.fontNotStored)
        XCTAssertEqual((evicted.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, ["/fontFaces/0/src"])
        XCTAssertEqual(try send(server, "PUT", "/v1/fonts/\(ids[0])", fonts[0]).status, 201)
        let uploadedAgain = try server.request("POST", "/v1/text/measure", json: measure)
        XCTAssertEqual(uploadedAgain.status, 200, uploadedAgain.text)
        XCTAssertEqual(uploadedAgain.body, first.body)
    }
}

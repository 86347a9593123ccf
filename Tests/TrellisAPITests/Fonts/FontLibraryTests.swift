import Foundation
import XCTest
import TrellisText
@testable import TrellisAPI
import TrellisTestSupport

/// Storing font files: the id is the SHA-256 of the bytes as sent, OTS sanitizes every new file (WOFF and
/// WOFF2 decoded into a plain sfnt), each refusal carries OTS's reason, and the store keeps the most recently
/// used fonts within its bytes, on disk too when it has a directory.
final class FontLibraryTests: XCTestCase {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
        return [UInt8](try Data(contentsOf: url))
    }

    static func id(of bytes: [UInt8]) throws -> FontID {
        try XCTUnwrap(FontID(digest: try XCTUnwrap(bytes.withUnsafeBytes { ContentDigest.sha256($0) })))
    }

    private func store(_ bytes: [UInt8], in library: FontLibrary, claimed: FontID? = nil) -> Result<FontLibrary.Stored, FontLibrary.Refusal> {
        bytes.withUnsafeBytes { library.store($0, claimed: claimed) }
    }

    private func rejection(_ bytes: [UInt8], in library: FontLibrary = FontLibrary()) -> String? {
        guard case .failure(.rejected(let reason)) = store(bytes, in: library) else { return nil }
        return reason
    }

    /// The Inter fixtures named (three), and an empty library with room for the two largest of them once sanitized:
    /// storing the third evicts the least recently used.
    private func libraryHoldingTwo(of names: [String]) throws -> (fonts: [[UInt8]], library: FontLibrary) {
        let fonts = try names.map(Self.fixture)
        // Each one's sanitized size, stored alone (a refusal fails the test).
        let sizes = try fonts.map { try store($0, in: FontLibrary()).get().font.memoryBytes }
        return (fonts, FontLibrary(storeBytes: sizes.sorted().suffix(2).reduce(0, +)))
    }

    func testAWOFF2IsStoredAsItsSanitizedSfntUnderItsHash() throws {
        let bytes = try Self.fixture("inter-latin.woff2")
        let library = FontLibrary()
        guard case .success(.created(let font)) = store(bytes, in: library) else {
            return XCTFail("not stored: \(store(bytes, in: library))")
        }
        XCTAssertEqual(font.id, try Self.id(of: bytes))
        XCTAssertEqual(font.id.description.count, 71)
        XCTAssertTrue(font.id.description.hasPrefix("sha256-"))
        XCTAssertEqual(font.format, .woff2)
        XCTAssertEqual(font.sentBytes, bytes.count)
        // OTS decoded the WOFF2: HarfBuzz reads a TrueType sfnt.
        XCTAssertEqual(font.files.count, 1)
        XCTAssertEqual(font.files[0].withBytes { Array($0.prefix(4)) }, [0, 1, 0, 0])
        XCTAssertGreaterThan(font.files[0].byteCount, bytes.count)
        let face = try XCTUnwrap(font.faces.first)
        XCTAssertEqual(font.faces.count, 1)
        XCTAssertEqual(face.family, "Inter")
        XCTAssertEqual(face.axes.map(\.tag.description), ["wght", "slnt"])
        XCTAssertEqual(face.axes.map(\.minimum), [100, -10])
        XCTAssertEqual(face.axes.map(\.defaultValue), [400, 0])
        XCTAssertEqual(face.axes.map(\.maximum), [900, 0])
        let instances = face.namedInstances()
        XCTAssertTrue(instances.contains(NamedInstance(name: "Bold", coordinates: [700, 0])), "\(instances)")
        XCTAssertEqual(library.store.count, 1)
    }

    func testStoringTheSameBytesAgainFindsTheStoredFont() throws {
        let bytes = try Self.fixture("inter-latin.woff")
        let library = FontLibrary()
        guard case .success(.created(let first)) = store(bytes, in: library) else { return XCTFail("not stored") }
        guard case .success(.existing(let again)) = store(bytes, in: library, claimed: first.id) else {
            return XCTFail("not found again")
        }
        XCTAssertTrue(first === again)
        XCTAssertEqual(first.format, .woff)
        XCTAssertEqual(library.store.count, 1)
    }

    func testBytesWhoseHashIsNotTheIdAreRefused() throws {
        let bytes = try Self.fixture("inter-latin.ttf")
        let other = try Self.id(of: Array(bytes.dropLast()))
        guard case .failure(.idMismatch(let sent, let actual)) = store(bytes, in: FontLibrary(), claimed: other) else {
            return XCTFail("accepted")
        }
        XCTAssertEqual(sent, other)
        XCTAssertEqual(actual, try Self.id(of: bytes))
    }

    /// The very file Chromium's @font-face rejects.
    func testNanumGothicIsRefusedWithOTSsReason() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf")))
        XCTAssertEqual(rejection(bytes), "TSI3: zero-length table")
    }

    func testATruncatedFileIsRefused() throws {
        let bytes = Array(try Self.fixture("inter-latin.ttf").prefix(1000))
        let reason = try XCTUnwrap(rejection(bytes))
        XCTAssertTrue(reason.contains("invalid table offset") || reason.contains("table"), reason)
    }

    /// WOFF2's header declares the decompressed size: OTS's own bound refuses anything past 300 MB.
    func testAWOFF2DeclaringAGiganticSizeIsRefused() throws {
        var bytes = try Self.fixture("inter-latin.woff2")
        Self.declareDecompressedSize(0x7FFF_FFFF, in: &bytes)
        XCTAssertEqual(rejection(bytes), "Size of decompressed WOFF 2.0 font exceeds 300MB")
    }

    /// Under OTS's own bound, the sanitizer's address-space limit stops the allocation.
    func testAWOFF2DeclaringMoreThanTheSanitizersMemoryIsRefused() throws {
        var bytes = try Self.fixture("inter-latin.woff2")
        Self.declareDecompressedSize(299 << 20, in: &bytes)
        XCTAssertEqual(rejection(bytes), "sanitizing needed more than 256 MiB of memory")
    }

    static func declareDecompressedSize(_ size: UInt32, in bytes: inout [UInt8]) {
        // WOFF2 header: signature, flavor, length, numTables + reserved, then totalSfntSize at offset 16.
        for i in 0..<4 { bytes[16 + i] = UInt8(truncatingIfNeeded: size >> UInt32(24 - 8 * i)) }
    }

    /// A CFF charstring whose subroutine calls itself, without end.
    func testAMaliciouslyDeepFontIsRefused() throws {
        let reason = try XCTUnwrap(rejection(try Self.fixture("deep.otf")))
        XCTAssertTrue(reason.hasPrefix("CFF"), reason)
    }

    func testBytesThatAreNoFontAreRefusedWithoutRunningTheSanitizer() throws {
        let sanitizer = FontSanitizer(executable: "/nonexistent/ots-sanitize")
        XCTAssertEqual(
            rejection(Array("<html>not a font</html>".utf8), in: FontLibrary(sanitizer: sanitizer)),
            "the file is not a TrueType, OpenType, collection, WOFF or WOFF2 font (its signature is unknown)")
    }

    func testAMissingSanitizerIsTheServersFault() throws {
        let library = FontLibrary(sanitizer: FontSanitizer(executable: "/nonexistent/ots-sanitize"))
        guard case .failure(.unavailable(let why)) = store(try Self.fixture("inter-latin.ttf"), in: library) else {
            return XCTFail("stored without a sanitizer")
        }
        XCTAssertTrue(why.contains("could not run"), why)
    }

    func testAFileLargerThanTheLimitIsRefusedBeforeAnythingElse() throws {
        let bytes = try Self.fixture("inter-latin.ttf")
        let library = FontLibrary(maxFontBytes: bytes.count - 1)
        guard case .failure(.tooLarge(let limit)) = store(bytes, in: library) else { return XCTFail("accepted") }
        XCTAssertEqual(limit, bytes.count - 1)
    }

    /// The sanitizer may not write more than the store could ever hold.
    func testASanitizedFontLargerThanTheStoreIsRefused() throws {
        let bytes = try Self.fixture("inter-latin.woff2")
        let library = FontLibrary(storeBytes: 100_000)
        guard case .failure(.tooLargeSanitized(let limit)) = store(bytes, in: library) else {
            return XCTFail("stored: \(store(bytes, in: library))")
        }
        XCTAssertEqual(limit, 100_000)
        XCTAssertEqual(library.store.count, 0)
    }

    func testACollectionKeepsEveryFace() throws {
        let library = FontLibrary()
        guard case .success(.created(let font)) = store(try Self.fixture("pair.ttc"), in: library) else {
            return XCTFail("not stored")
        }
        XCTAssertEqual(font.format, .collection)
        XCTAssertEqual(font.faces.map(\.family), ["Inter", "DejaVu Sans"])
        // Each face sanitized on its own: OTS's output of the whole collection repeats its first face.
        XCTAssertEqual(font.files.count, 2)
        // And kept on disk as such.
        let path = NSTemporaryDirectory() + "trellis-font-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try XCTUnwrap(FontStoreDirectory(path: path)).save(font)
        let restarted = FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path)))
        XCTAssertEqual(restarted.loadDirectory(), 1)
        XCTAssertEqual(restarted.store.font(font.id)?.faces.map(\.family), ["Inter", "DejaVu Sans"])
    }

    func testTheLeastRecentlyUsedFontIsEvictedFirst() throws {
        let (fonts, small) = try libraryHoldingTwo(of: ["inter-latin.ttf", "inter-latin.woff", "inter-latin.woff2"])
        // Storing the first two, then using the first, leaves the second the oldest.
        let ids = try fonts.map(Self.id)
        _ = store(fonts[0], in: small)
        _ = store(fonts[1], in: small)
        XCTAssertNotNil(small.store.font(ids[0]))
        guard case .success(.created) = store(fonts[2], in: small) else { return XCTFail("not stored") }
        XCTAssertEqual(small.store.fontsByUse.map(\.id), [ids[0], ids[2]])
        XCTAssertNil(small.store.font(ids[1]))
        XCTAssertLessThanOrEqual(small.store.bytes, small.store.capacity)
    }

    func testADirectoryKeepsTheFontsAcrossARestart() throws {
        let path = NSTemporaryDirectory() + "trellis-font-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try Self.fixture("inter-latin.woff2")
        let first = FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path)))
        guard case .success(.created(let stored)) = store(bytes, in: first) else { return XCTFail("not stored") }
        let restarted = FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path)))
        XCTAssertEqual(restarted.loadDirectory(), 1)
        let loaded = try XCTUnwrap(restarted.store.font(stored.id))
        XCTAssertEqual(loaded.format, .woff2)
        XCTAssertEqual(loaded.sentBytes, bytes.count)
        XCTAssertEqual(loaded.files.map { $0.withBytes { Array($0) } }, stored.files.map { $0.withBytes { Array($0) } })
        XCTAssertEqual(loaded.faces.map(\.family), ["Inter"])
        // A damaged file is dropped, not trusted.
        let file = path + "/" + stored.id.description + ".font"
        try Data("TRELFONT".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(FontLibrary(directory: try XCTUnwrap(FontStoreDirectory(path: path))).loadDirectory(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }

    func testIdsAreSha256AndSixtyFourLowercaseHexDigits() {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        XCTAssertEqual(FontID("sha256-" + hex)?.description, "sha256-" + hex)
        XCTAssertNil(FontID("sha256-" + hex.uppercased()))
        XCTAssertNil(FontID("sha256-" + hex.dropLast()))
        XCTAssertNil(FontID("sha512-" + hex))
        XCTAssertNil(FontID("sha256-" + hex + "0"))
        XCTAssertNil(FontID("sha256-" + hex.dropLast() + "g"))
    }

    /// A declared Inter (weight 100 900) resolved as a request resolves it.
    private static func resolution(of font: StoredFont, weight: Double = 450) throws -> ResolvedFaces {
        let face = try XCTUnwrap(font.faces.first)
        let rule = FontFaceRule(family: "Inter", face: face, capabilities: SelectionCapabilities(weight: SelectionRange(100, 900)))
        return try FontCollection(faces: []).resolve(
            FontFamilyList.parse("Inter").get(), properties: FontProperties(size: 16, weight: weight), declared: [rule]
        ).get()
    }

    /// Rule: a remembered resolution never outlives a font its declaration names: evicting the font forgets it (its
    /// faces are freed with the font), and a resolution made from a font evicted meanwhile is not remembered.
    func testARememberedResolutionDoesNotKeepAnEvictedFont() throws {
        let (fonts, library) = try libraryHoldingTwo(of: ["inter-latin.woff2", "inter-latin.ttf", "inter-latin.woff"])
        let key = DeclaredFacesKey(declaration: Array("inter 100 900".utf8), family: "Inter", properties: FontProperties(size: 16, weight: 450))
        weak var evictedFace: FontFace?
        try {
            guard case .success(.created(let font)) = store(fonts[0], in: library) else { return XCTFail("not stored") }
            library.store.remember(key, try Self.resolution(of: font), fonts: [font])
            let remembered = try XCTUnwrap(library.store.declaredFaces(key))
            XCTAssertTrue(remembered.faces.first === font.faces.first)
            // Another key (here another weight) is another resolution.
            XCTAssertNil(library.store.declaredFaces(DeclaredFacesKey(
                declaration: key.declaration, family: "Inter", properties: FontProperties(size: 16, weight: 451))))
            evictedFace = font.faces.first
        }()
        XCTAssertNotNil(evictedFace)
        _ = store(fonts[1], in: library)
        _ = store(fonts[2], in: library)
        XCTAssertFalse(library.store.contains(try Self.id(of: fonts[0])))
        XCTAssertEqual(library.store.declaredCount, 0)
        XCTAssertEqual(library.store.declaredBytes, 0)
        XCTAssertNil(library.store.declaredFaces(key))
        XCTAssertNil(evictedFace, "the evicted font's face is still held")

        // Resolved from a font that is evicted before the resolution is remembered: not remembered.
        let kept = try XCTUnwrap(library.store.fontsByUse.first)
        let resolved = try Self.resolution(of: kept)
        _ = store(fonts[0], in: library)
        XCTAssertFalse(library.store.contains(kept.id))
        library.store.remember(key, resolved, fonts: [kept])
        XCTAssertEqual(library.store.declaredCount, 0)
        // Nor from a font stored again since (another object under the same id).
        let keptBytes = try XCTUnwrap(fonts.first { (try? Self.id(of: $0)) == kept.id })
        guard case .success(.created(let again)) = store(keptBytes, in: library) else { return XCTFail("not stored") }
        XCTAssertFalse(again === kept)
        library.store.remember(key, resolved, fonts: [kept])
        XCTAssertEqual(library.store.declaredCount, 0)
        library.store.remember(key, try Self.resolution(of: again), fonts: [again])
        XCTAssertEqual(library.store.declaredCount, 1)
    }

    /// Rule: remembered resolutions count at most `FontStore.declaredCapacity` bytes, and one that would count more
    /// than `maxRememberedBytes` is not remembered.
    func testRememberedResolutionsStayWithinTheirBytes() throws {
        let library = FontLibrary()
        guard case .success(let stored) = store(try Self.fixture("inter-latin.woff2"), in: library) else { return XCTFail("not stored") }
        let font = stored.font
        let resolved = try Self.resolution(of: font)
        let large = DeclaredFacesKey(
            declaration: [UInt8](repeating: 1, count: FontStore.maxRememberedBytes), family: "Inter", properties: FontProperties(size: 16))
        library.store.remember(large, resolved, fonts: [font])
        XCTAssertEqual(library.store.declaredCount, 0)
        var kept = 0
        for index in 0..<4000 {
            let key = DeclaredFacesKey(
                declaration: Array("rule \(index) ".utf8) + [UInt8](repeating: 2, count: 1000), family: "Inter",
                properties: FontProperties(size: 16))
            library.store.remember(key, resolved, fonts: [font])
            XCTAssertLessThanOrEqual(library.store.declaredBytes, FontStore.declaredCapacity)
            kept = max(kept, library.store.declaredCount)
        }
        XCTAssertGreaterThan(kept, 500)
        XCTAssertLessThan(kept, 1100)
    }

    /// Rule: the widths and paragraphs the caches keep keep no font alive: once evicted, a font that measured labels
    /// and laid out a list's paragraphs is freed, while those entries still age out of their caches.
    func testTheCachesKeepNoEvictedFont() throws {
        let (fonts, library) = try libraryHoldingTwo(of: ["inter-latin.woff2", "inter-latin.ttf", "inter-latin.woff"])
        let context = FeatureContext(fonts: TestFonts.collection, fontLibrary: library)
        let service = TrellisService(configuration: ServiceConfiguration(context: context))
        weak var face: FontFace?
        do {
            guard case .success(.created(let font)) = store(fonts[0], in: library) else { return XCTFail("not stored") }
            face = font.faces.first
            let declared = #""font":{"family":"Inter","size":16,"weight":450},"fontFaces":[{"family":"Inter","src":"\#(font.id)","weight":"100 900"}]"#
            let measured = call(service, "POST", "/v1/text/measure", json: #"{\#(declared),"texts":["Swift","Trellis"]}"#)
            XCTAssertEqual(measured.status, 200, measured.text)
            let listed = call(service, "POST", "/v1/list/layout", json: #"{\#(declared),"width":120,"rows":[{"texts":["Trellis lays text out as Chromium does."]}]}"#)
            XCTAssertEqual(listed.status, 200, listed.text)
        }
        XCTAssertGreaterThan(context.measureCache.count, 0)
        XCTAssertGreaterThan(context.shapingCache.count, 0)
        XCTAssertNotNil(face)
        _ = store(fonts[1], in: library)
        _ = store(fonts[2], in: library)
        XCTAssertFalse(library.store.contains(try Self.id(of: fonts[0])))
        XCTAssertGreaterThan(context.measureCache.count, 0)
        XCTAssertNil(face, "an evicted font's face is still held")
    }
}

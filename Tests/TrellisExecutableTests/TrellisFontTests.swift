import Foundation
import XCTest

/// The fonts the process measures with: the Debian packages' faces by default, --font-dir and
/// TRELLIS_FONT_DIRS besides them (--no-default-fonts: only those), the generic names by flag, exit 2 without any font.
final class TrellisFontTests: XCTestCase {
    /// Runs the binary to its exit.
    private func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = TrellisProcessTests.binary
        process.arguments = arguments
        process.environment = [:]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A temporary directory holding links to the named files of the DejaVu package.
    private func fontDirectory(_ names: [String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        for name in names {
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent(name),
                withDestinationURL: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/\(name)"))
        }
        return directory
    }

    /// One request on a new connection; the status and body.
    private func exchange(_ port: Int, _ method: String, _ path: String, body: String = "") throws -> (Int, String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let request = Array(("\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            reply += chunk[..<n]
        }
        let text = String(decoding: reply, as: UTF8.self)
        let status = Int(text.dropFirst(9).prefix(3)) ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    private func families(_ port: Int) throws -> [String] {
        let (status, body) = try exchange(port, "GET", "/v1/fonts")
        XCTAssertEqual(status, 200, body)
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return (object?["fonts"] as? [[String: Any]] ?? []).map { "\($0["family"] ?? "") \($0["weight"] ?? "") \($0["style"] ?? "")" }
    }

    func testDefaultFontsAreTheDebianPackagesFaces() throws {
        let server = try TrellisProcessTests.Running()
        XCTAssertEqual(try exchange(server.port, "GET", "/readyz").0, 200)
        let listed = try families(server.port)
        XCTAssertTrue(listed.contains("DejaVu Sans 400 normal"), "\(listed)")
        XCTAssertTrue(listed.contains("DejaVu Serif 700 italic"), "\(listed)")
        XCTAssertTrue(listed.contains("IPAGothic 400 normal"), "\(listed)")
        // Thai, Korean, Chinese and emoji are defaults too (the Ghostscript copy of Droid is not loaded).
        for face in ["Garuda 400 normal", "Garuda 700 italic", "NanumBarunGothic 400 normal", "Droid Sans Fallback 400 normal",
                     "Noto Color Emoji 400 normal"] {
            XCTAssertTrue(listed.contains(face), "\(face) not in \(listed)")
        }
        XCTAssertEqual(listed.filter { $0.hasPrefix("Droid Sans Fallback ") }.count, 1, "\(listed)")
        let (status, body) = try exchange(
            server.port, "POST", "/v1/text/measure", body: #"{"font":{"family":"DejaVu Sans, IPAGothic","size":16},"texts":["Swift","明太子パスタ"]}"#)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, #"{"font":{"size":16,"ascent":15,"descent":4,"lineGap":0,"lineHeight":19},"texts":[{"width":39.3125,"height":19},{"width":96,"height":19}]}"#)
    }

    func testParagraphsAreLaidOutOverARealSocket() throws {
        let server = try TrellisProcessTests.Running()
        let (status, body) = try exchange(
            server.port, "POST", "/v1/text/layout",
            body: #"{"font":{"family":"DejaVu Sans, Noto Color Emoji","size":16},"texts":["Party time 🎉 with friends","ภาษาไทย"],"widths":[60,1000],"maxLines":2,"textOverflow":"ellipsis"}"#)
        XCTAssertEqual(status, 422, body)
        XCTAssertTrue(body.contains(#""pointer":"/texts/1""#), body)
        let (okStatus, okBody) = try exchange(
            server.port, "POST", "/v1/text/layout",
            body: #"{"font":{"family":"DejaVu Sans, Noto Color Emoji, Garuda","size":16},"texts":["Party time 🎉 with friends","ภาษาไทย"],"widths":[60,1000],"maxLines":2,"textOverflow":"ellipsis"}"#)
        XCTAssertEqual(okStatus, 200, okBody)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(okBody.utf8)) as? [String: Any])
        let layouts = try XCTUnwrap((answer["texts"] as? [[String: Any]])?.first?["layouts"] as? [[String: Any]])
        XCTAssertEqual(layouts.map { $0["lineCount"] as? Int }, [4, 1])
        XCTAssertEqual(layouts.map { $0["truncated"] as? Bool }, [true, false])
        XCTAssertNotNil(layouts[0]["ellipsis"])
    }

    func testFontDirJoinsTheDefaults() throws {
        let mono = try fontDirectory(["DejaVuSansMono.ttf"])
        let server = try TrellisProcessTests.Running(["--font-dir", mono.path])
        let listed = try families(server.port)
        XCTAssertTrue(listed.contains("DejaVu Sans Mono 400 normal"), "\(listed)")
        XCTAssertTrue(listed.contains("IPAGothic 400 normal"), "\(listed)")
        XCTAssertEqual(listed.filter { $0 == "DejaVu Sans Mono 400 normal" }.count, 1, "\(listed)")
    }

    func testNoDefaultFontsLoadsOnlyTheFontDirs() throws {
        let mono = try fontDirectory(["DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"])
        let serif = try fontDirectory(["DejaVuSerif.ttf"])
        // The flag is repeatable and wins over the environment.
        let server = try TrellisProcessTests.Running(
            ["--no-default-fonts", "--font-dir", mono.path, "--font-dir", serif.path, "--font-sans-serif", "DejaVu Serif",
             "--font-system-ui", "DejaVu Serif"],
            environment: ["TRELLIS_FONT_DIRS": "/nonexistent"])
        XCTAssertEqual(try families(server.port), ["DejaVu Sans Mono 400 normal", "DejaVu Sans Mono 700 normal", "DejaVu Serif 400 normal"])
        let (status, body) = try exchange(
            server.port, "POST", "/v1/text/measure", body: #"{"font":{"family":"DejaVu Sans","size":16},"texts":["Swift"]}"#)
        XCTAssertEqual(status, 422)
        XCTAssertTrue(body.contains(#"available: \"DejaVu Sans Mono\", \"DejaVu Serif\""#), body)
        // The generic names mean the families the flags give.
        let serifWidth = try exchange(
            server.port, "POST", "/v1/text/measure", body: #"{"font":{"family":"DejaVu Serif","size":16},"texts":["Swift"]}"#)
        for generic in ["sans-serif", "system-ui", "serif"] {
            let generic = try exchange(
                server.port, "POST", "/v1/text/measure", body: #"{"font":{"family":"\#(generic)","size":16},"texts":["Swift"]}"#)
            XCTAssertEqual(generic.0, 200, generic.1)
            XCTAssertEqual(generic.1, serifWidth.1)
        }
    }

    func testAGenericNameMeaningNoLoadedFamilyExits2() throws {
        let result = try run(["--port", "0", "--font-monospace", "Inter"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains(#"monospace means "Inter", which no loaded font has"#), result.stderr)
        let mono = try fontDirectory(["DejaVuSansMono.ttf"])
        // Without the defaults, sans-serif's DejaVu Sans is not loaded.
        XCTAssertEqual(try run(["--port", "0", "--no-default-fonts", "--font-dir", mono.path]).status, 2)
    }

    func testFontDirsFromTheEnvironmentAreColonSeparated() throws {
        let mono = try fontDirectory(["DejaVuSansMono.ttf"])
        let serif = try fontDirectory(["DejaVuSerif-Italic.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf"])
        let server = try TrellisProcessTests.Running(
            [], environment: ["TRELLIS_FONT_DIRS": "\(mono.path):\(serif.path)", "TRELLIS_NO_DEFAULT_FONTS": "1"])
        XCTAssertEqual(
            try families(server.port),
            ["DejaVu Sans 400 normal", "DejaVu Sans Mono 400 normal", "DejaVu Serif 400 normal", "DejaVu Serif 400 italic"])
    }

    func testNoFontAtAllExits2() throws {
        let empty = try fontDirectory([])
        try Data("not a font".utf8).write(to: empty.appendingPathComponent("broken.ttf"))
        let result = try run(["--port", "0", "--no-default-fonts", "--font-dir", empty.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("no font to measure text with in --font-dir \(empty.path)"), result.stderr)
        XCTAssertEqual(try run(["--port", "0", "--font-dir", ""]).status, 2)
    }
}

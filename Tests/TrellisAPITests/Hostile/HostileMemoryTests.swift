import Foundation
import Glibc
import XCTest
@testable import TrellisAPI
@testable import TrellisJSON

/// Memory held for one large request is given back once it is answered: big bodies and
/// abandoned uploads must not leave the server at its peak RSS.
final class HostileMemoryTests: HostileTestCase {
    /// Regression: trimming shrank simdjson's parser but not its document (a tape of 8 bytes per
    /// input byte plus a string buffer), and a large body that failed to parse was never trimmed,
    /// so each worker thread kept the largest document's buffers (about 10× the body) for good.
    /// The router runs on this thread here, so this thread's parser is the one measured.
    func testTheParserShrinksAfterALargeBodyParsedOrNot() {
        let service = TrellisService()
        let million = "[" + Array(repeating: "0", count: 1_500_000).joined(separator: ",") + "]"
        let bodies = [
            #"{"containerWidth":100,"items":\#(million)}"#,  // parses; 422
            #"{"containerWidth":100,"items":\#(million)"#,  // does not parse; 400
            "\u{FEFF}" + million,  // refused at the first byte; 400
        ]
        for body in bodies {
            let response = call(service, "POST", "/v1/flow/layout", json: body)
            XCTAssertTrue([400, 422].contains(response.status), response.text)
            XCTAssertLessThanOrEqual(JSONDocument.parserCapacity, 1 << 20, "the parser kept a \(body.utf8.count)-byte document's capacity")
        }
        // Small bodies keep the parser as it is.
        XCTAssertEqual(call(service, "POST", "/v1/flow/layout", json: Hostile.endpoints[2].valid).status, 200)
    }

    /// Regression: glibc raises its mmap threshold to the largest block freed (up to 32 MiB), so
    /// after one large body the next bodies and responses came from malloc arenas that rarely
    /// shrink, and RSS after a burst of large or abandoned uploads stayed near its peak (seen:
    /// over 900 MiB held with 25 MiB in use). The server fixes the threshold when it starts.
    func testLargeBlocksStayMappedAfterTheServerStarts() throws {
        let server = try Hostile.server()
        // Freeing a mapped block raises a self-adjusting threshold to its size (up to 32 MiB).
        free(try XCTUnwrap(malloc(31 << 20)))
        // No arena holds a free 24 MiB chunk, so only the threshold decides where this comes from.
        XCTAssertTrue(try Self.isMapped(bytes: 24 << 20), "a 24 MiB block came from an arena")
        assertHealthy(server)
    }

    /// Whether glibc serves a block of `bytes` from a mapping of its own: a mapped chunk spans
    /// whole pages, so its usable size exceeds the request by nearly a page; an arena chunk's
    /// exceeds it by at most 24 bytes. (malloc.h is not in Swift's Glibc module: dlsym.)
    private static func isMapped(bytes: Int) throws -> Bool {
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
        let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
        let block = try XCTUnwrap(malloc(bytes))
        defer { free(block) }
        return usableSize(block) >= bytes + 1024
    }

    /// Regression: libmicrohttpd 0.9.75 misses a close that arrives with the last bytes of an
    /// unfinished upload, so the request (and the body so far) was held, and its connection
    /// counted against --max-connections, until --connection-timeout (30 s here). Abandoned
    /// Content-Length uploads, and refused ones, are now dropped at once.
    func testAbandonedUploadsAreFreedAtOnce() throws {
        let server = try Hostile.server(maxBodyBytes: 4 << 20)
        let body = [UInt8](repeating: 0x20, count: 256 << 10)
        for round in 0..<30 {
            let connection = try Hostile.connect(server)
            if round % 3 == 2 {
                try connection.send(Hostile.head("/v1/flow/layout", length: 8 << 20))  // 413, then more bytes
                _ = try? connection.send(body)
            } else {
                try connection.send(Hostile.head("/v1/flow/layout", length: 3 << 20) + body.prefix(round % 2 == 0 ? 1000 : body.count))
            }
        }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }

    /// An abandoned chunked upload cannot be told from one whose rest libmicrohttpd still holds
    /// unread, so it is freed when --connection-timeout (1 s here) closes it (README, Limits).
    func testAbandonedChunkedUploadsAreFreedAtTheTimeout() throws {
        let server = try Hostile.server(maxBodyBytes: 4 << 20, connectionTimeout: 1)
        let body = [UInt8](repeating: 0x20, count: 256 << 10)
        for _ in 0..<10 {
            let connection = try Hostile.connect(server)
            try connection.send(
                Array("POST /v1/flow/layout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n".utf8) + body)
        }
        assertHealthy(server)
        assertNoRequestsLeft(server)
    }
}

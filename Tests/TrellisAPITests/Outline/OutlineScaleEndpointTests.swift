import XCTest
@testable import TrellisAPI
import TrellisTestSupport

final class OutlineScaleEndpointTests: XCTestCase {
    private let service = TrellisService()

    /// Scale: 1,000,000 nodes (36 MB) with `swift test -c release`; 200,000 in debug, where 1M takes over 10 s.
    #if DEBUG
    private let n = 200_000
    #else
    private let n = 1_000_000
    #endif

    /// Scale: a flat chain through the router, on both endpoints.
    func testLongFlatChain() throws {
        let expansion = call(service, "POST", "/v1/outline/expansion", json: OutlineJSON.flatChain(count: n, #""selection":"n0""#))
        XCTAssertEqual(expansion.status, 200)
        let expand = try XCTUnwrap(expansion.json["expand"] as? [String])
        XCTAssertEqual(expand.count, n - 1)
        XCTAssertEqual(expand.first, "n\(n - 1)")
        XCTAssertEqual(expand.last, "n1")
        let paths = try XCTUnwrap(expansion.json["paths"] as? [[String: Any]])
        let path = try XCTUnwrap(paths.first?["path"] as? [String])
        XCTAssertEqual(path.count, n)
        XCTAssertEqual(path.last, "n0")

        let rows = call(service, "POST", "/v1/outline/rows",
                        json: OutlineJSON.flatChain(count: n, #""selection":"n0","offset":\#(n - 2),"limit":5"#))
        XCTAssertEqual(rows.text, """
            {"rows":[{"index":\(n - 2),"id":"n1","depth":\(n - 2),"parent":"n2","expandable":true,"expanded":true,"selected":false},\
            {"index":\(n - 1),"id":"n0","depth":\(n - 1),"parent":"n1","expandable":false,"expanded":false,"selected":true}],\
            "totalRows":\(n),"selectedRow":\(n - 1),"noSelection":{"selected":false}}
            """)
    }
}

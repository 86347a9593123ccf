import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Mismatches between openapi.yaml and the server that `make contract-test` (schemathesis) found.
final class OutlineContractTests: XCTestCase {
    private let service = TrellisService()

    /// Ids, `offset` and `limit` are JSON Schema integers, which 3.0 is: the server used to answer
    /// 422 for integral decimals. Such an id is the integer id, written back as 3.
    func testIntegralDecimalsAreIntegers() {
        let expansion = call(service, "POST", "/v1/outline/expansion", json: #"{"nodes":[{"id":3.0,"children":[{"id":4}]}],"selection":4.0}"#)
        XCTAssertEqual(expansion.status, 200, expansion.text)
        XCTAssertEqual(expansion.text, #"{"expand":[3],"paths":[{"id":4,"found":true,"path":[3,4]}]}"#)
        let rows = call(service, "POST", "/v1/outline/rows", json: #"{"nodes":[{"id":1},{"id":2},{"id":3}],"offset":1.0,"limit":1e0}"#)
        XCTAssertEqual(rows.status, 200, rows.text)
        XCTAssertEqual(rows.json["totalRows"] as? Int, 3)
        XCTAssertEqual((rows.json["rows"] as? [[String: Any]])?.map { $0["id"] as? Int }, [2])
        let duplicate = call(service, "POST", "/v1/outline/rows", json: #"{"nodes":[{"id":1},{"id":1.0}]}"#)
        XCTAssertEqual(duplicate.status, 422, "1 and 1.0 are the same id: \(duplicate.text)")
    }

    /// An integer beyond 64 bits in an ignored member used to make the body a 400; as an id it is
    /// an integer out of range.
    func testIntegersBeyond64BitsAreNumbers() {
        let ignored = call(service, "POST", "/v1/outline/rows", json: #"{"nodes":[{"id":1,"size":99999999999999999999999}]}"#)
        XCTAssertEqual(ignored.status, 200, ignored.text)
        let id = call(service, "POST", "/v1/outline/rows", json: #"{"nodes":[{"id":99999999999999999999999}]}"#)
        XCTAssertEqual(id.status, 422, id.text)
        XCTAssertTrue(id.text.contains("must be a string or an integer with magnitude at most 2^53"), id.text)
    }
}

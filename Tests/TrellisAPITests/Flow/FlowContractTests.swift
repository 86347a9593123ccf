import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Mismatches between openapi.yaml and the server that `make contract-test` (schemathesis) found.
final class FlowContractTests: XCTestCase {
    private let service = TrellisService()

    /// `maxRows` is `type: integer`, which JSON Schema (and JavaScript) satisfy with 2.0 as with 2;
    /// the server used to answer 422 for an integral decimal.
    func testMaxRowsAcceptsAnIntegralDecimal() {
        let json = #"{"containerWidth":100,"items":[{"width":60,"height":10},{"width":60,"height":10}],"maxRows":1.0}"#
        let response = call(service, "POST", "/v1/flow/layout", json: json)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.json["hiddenCount"] as? Int, 1)
        let fraction = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":100,"items":[],"maxRows":1.5}"#)
        XCTAssertEqual(fraction.status, 422, fraction.text)
    }

    /// An integer literal beyond 64 bits is valid JSON: it used to make the whole body a 400.
    /// Now it is a number like any other: ignored in an unknown member, out of range for maxRows.
    func testIntegersBeyond64BitsAreNumbers() {
        let ignored = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":10,"items":[],"x":[18446744073709551616,-9223372036854775809]}"#)
        XCTAssertEqual(ignored.status, 200, ignored.text)
        let maxRows = call(service, "POST", "/v1/flow/layout", json: #"{"containerWidth":10,"items":[],"maxRows":18446744073709551616}"#)
        XCTAssertEqual(maxRows.status, 422, maxRows.text)
        let errors = maxRows.json["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors.map { [$0["pointer"] ?? "", $0["detail"] ?? ""] }, [["/maxRows", "must be an integer within 1...2147483647"]])
    }
}

import XCTest
@testable import TrellisAPI

/// Mismatches between openapi.yaml and the server that `make contract-test` (schemathesis) found.
final class FlowContractTests: XCTestCase {
    private let service = TrellisService()

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

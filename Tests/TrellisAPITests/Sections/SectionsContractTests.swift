import XCTest
@testable import TrellisAPI
import TrellisTestSupport

/// Mismatches between openapi.yaml and the server that `make contract-test` (schemathesis) found.
final class SectionsContractTests: XCTestCase {
    private let service = TrellisService()

    private func toggle(_ json: String) -> TestResponse {
        call(service, "POST", "/v1/sections/toggle", json: json)
    }

    /// An `Id` is a string or a JSON Schema integer, and 1.0 is the integer 1: it names section 1
    /// (the server used to answer 422 "must be a string or an integer").
    func testAnIntegralDecimalIdNamesTheIntegerSection() {
        let response = toggle(#"{"sections":[{"id":1,"items":["a"]},{"id":"1"}],"expanded":["1"],"toggle":1.0}"#)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertTrue(response.text.hasPrefix(#"{"expanded":[1,"1"],"changed":[1],"#), response.text)
        let fraction = toggle(#"{"sections":[{"id":1}],"toggle":1.5}"#)
        XCTAssertEqual(fraction.status, 422, fraction.text)
    }

    /// Items are any JSON values, echoed while open; an integer beyond 64 bits used to be a 400.
    func testItemsBeyond64BitsAreEchoedAsNumbers() {
        let response = toggle(#"{"sections":[{"id":"a","items":[18446744073709551616,-9223372036854775809]}],"expanded":["a"]}"#)
        XCTAssertEqual(response.status, 200, response.text)
        let sections = response.json["sections"] as? [[String: Any]] ?? []
        XCTAssertEqual(sections.first?["items"] as? [Double], [18446744073709551616.0, -9223372036854775809.0])
        XCTAssertEqual(sections.first?["itemCount"] as? Int, 2)
    }
}

import XCTest
@testable import TrellisAPI
import TrellisTestSupport

final class OperationsTests: XCTestCase {
    func testHealthzAnswersOK() throws {
        let server = try LiveServer()
        let response = try server.request("GET", "/healthz")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"{"status":"ok"}"#)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
    }

    /// openapi.yaml documents exactly the paths the service routes (the registry's features and the operations).
    func testTheSpecListsEveryRoutedPath() throws {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        let documented = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") else { return nil }
            return String(line.dropFirst(2).dropLast())
        }
        XCTAssertEqual(Set(documented), Set(TrellisService().paths))
        XCTAssertTrue(Set(Features.paths).isSubset(of: Set(documented)))
    }
}

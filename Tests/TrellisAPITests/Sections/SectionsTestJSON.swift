import Foundation
import XCTest
import TrellisTestSupport

/// JSON text for the sections tests, written independently of the service's JSONWriter.
enum SectionsTestJSON {
    static let path = "/v1/sections/toggle"

    /// A JSON string with the escapes RFC 8259 requires, in the short forms a compact writer uses.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `pointer: detail` for each entry of a 422's `errors`.
    static func problems(_ response: TestResponse) -> [String] {
        let errors = response.json["errors"] as? [[String: Any]] ?? []
        return errors.map { "\($0["pointer"] as? String ?? "?"): \($0["detail"] as? String ?? "?")" }
    }

    /// Compares bytes, not Strings: Swift's String == would equate canonically equivalent text.
    static func assertBody(
        _ response: TestResponse, _ expected: String, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(response.status, 200, "\(message) \(response.text)", file: file, line: line)
        if response.body != Array(expected.utf8) {
            XCTFail("body differs \(message)\n  got:      \(response.text)\n  expected: \(expected)", file: file, line: line)
        }
    }
}

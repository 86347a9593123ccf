import XCTest
@testable import TrellisAPI

final class IDTableTests: XCTestCase {
    func testNumbersIdsFindsThemAgainAndReportsDuplicates() {
        // Ids 0..<5000 as integers, then the same as strings, then a repeat of each kind.
        let ints = (0..<5000).map(String.init)
        let strings = (0..<5000).map { "\"\($0)\"" }
        let text = "[" + (ints + strings + ["17", "\"17\"", "\"é\"", "\"e\\u0301\"", "\"\""]).joined(separator: ",") + "]"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape)
            for (i, value) in values.enumerated() {
                let duplicate = table.append(value)
                switch i {
                case 10_000: XCTAssertEqual(duplicate, 17, "integer 17 repeats entry 17")
                case 10_001: XCTAssertEqual(duplicate, 5017, "string \"17\" repeats entry 5017")
                default: XCTAssertNil(duplicate, "entry \(i)")
                }
            }
            XCTAssertEqual(table.count, values.count)
            for i in [0, 4999, 5000, 9999, 10_002, 10_003, 10_004] {
                XCTAssertEqual(table.entry(of: values[i]), i, "a canonically equivalent string is still a different id")
            }
            XCTAssertEqual(table.value(of: 5000)?.string, "0")
        }
    }

    func testEntriesWithoutAValidIdAreNumberedButNeverFound() {
        let bytes = Array(#"["a", null, "b"]"#.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape)
            XCTAssertNil(table.append(values[0]))
            XCTAssertNil(table.append(nil))
            XCTAssertNil(table.append(values[2]))
            XCTAssertNil(table.value(of: 1))
            XCTAssertEqual(table.entry(of: values[2]), 2)
        }
    }
}

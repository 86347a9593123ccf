import XCTest
@testable import TrellisCore

final class OutlineFoldingTests: XCTestCase {
    /// The table gives what the folding rule gives, scalar by scalar, with marks flagged as their categories say:
    /// every third scalar of planes 0 to 2 and of the tags and variation selectors, in both tables.
    func testTheTableFoldsAsTheRuleDoes() {
        let table = OutlineFolding()
        let values = Array(stride(from: 0, to: 0x30000, by: 3)) + Array(0xE0000..<0xE0200)
        for caseSensitive in [false, true] {
            for value in values {
                guard let c = Unicode.Scalar(UInt32(value)) else { continue }
                var expected: [UInt32] = []
                var scratch: [Unicode.Scalar] = []
                OutlineFolding.fold(c, caseSensitive: caseSensitive, diacriticSensitive: true, scratch: &scratch) { d, category in
                    expected.append(d.value | (category == .nonspacingMark ? OutlineFolding.nonspacing : 0)
                        | (OutlineFolding.isCombiningMark(category) ? OutlineFolding.combining : 0))
                }
                let folded = table.fold(c, caseSensitive: caseSensitive)
                let got = (0..<folded.count).map { folded.scalar($0, of: c.value) }
                guard got == expected else { return XCTFail("U+\(String(value, radix: 16)) case-sensitive \(caseSensitive): \(got) ≠ \(expected)") }
                XCTAssertEqual(folded.isMark, OutlineFolding.isCombiningMark(c.properties.generalCategory), "U+\(String(value, radix: 16))")
            }
        }
    }

    /// Blocks made on several threads at once come out the same (one of each is kept).
    func testBlocksMadeConcurrentlyAgree() {
        let table = OutlineFolding()
        let letters = (0x100..<0x2000).compactMap { Unicode.Scalar(UInt32($0)) }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for c in letters.shuffled() { _ = table.fold(c, caseSensitive: false) }
        }
        let fresh = OutlineFolding()
        for c in letters {
            let a = table.fold(c, caseSensitive: false), b = fresh.fold(c, caseSensitive: false)
            XCTAssertEqual((0..<a.count).map { a.scalar($0, of: c.value) }, (0..<b.count).map { b.scalar($0, of: c.value) })
        }
    }
}

@testable import TrellisText
import TrellisTestSupport
import XCTest

/// The meter counts a text's scalars from its UTF-8 bytes, eight at a time: the count must be
/// `unicodeScalars.count` for every mix of one- to four-byte scalars, at every length and alignment.
final class ScalarCountTests: XCTestCase {
    func testEveryMixOfScalarWidthsCountsAsTheScalarView() {
        let scalars: [Unicode.Scalar] = ["a", "\u{7F}", "\u{80}", "é", "\u{7FF}", "\u{800}", "ก", "\u{FFFD}", "\u{10000}", "😀", "\u{10FFFF}"]
        var rng = SplitMix64(seed: 0x5CA1_A2C0)
        for length in 0..<70 {
            for _ in 0..<20 {
                var text = String.UnicodeScalarView()
                for _ in 0..<length { text.append(scalars[Int.random(in: 0..<scalars.count, using: &rng)]) }
                let string = String(text)
                XCTAssertEqual(string.scalarCount, string.unicodeScalars.count, string)
                // A substring's bytes start anywhere in a word.
                let tail = String(string.dropFirst(length / 3))
                XCTAssertEqual(tail.scalarCount, tail.unicodeScalars.count, tail)
            }
        }
    }
}

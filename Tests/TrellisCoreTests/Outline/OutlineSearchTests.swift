import TrellisTestSupport
import XCTest
@testable import TrellisCore

final class OutlineSearchTests: XCTestCase {
    /// One folding table for every search of the suite, as the service keeps one.
    private let folding = OutlineFolding()

    /// The ranges of each label, one node per label; a label has ranges exactly when its node matches. Each
    /// label's ranges are found twice, by `ranges(in:)` after matching and by a search that collects them as it
    /// matches (`appendNode(label:meter:ranges:)`), and must agree.
    private func ranges(_ labels: [String?], _ search: OutlineSearch,
                        file: StaticString = #filePath, line: UInt = #line) -> [[Range<Int>]] {
        var search = search
        var collecting = search
        var meter = WorkMeter()
        var found: [[Range<Int>]] = []
        for label in labels {
            var ranges: [Range<Int>] = []
            var collected: [Range<Int>] = []
            if var label {
                label.withUTF8 { bytes in
                    search.appendNode(label: UnsafeRawBufferPointer(bytes))
                    search.ranges(in: UnsafeRawBufferPointer(bytes)) { ranges.append($0..<$1) }
                    collecting.appendNode(label: UnsafeRawBufferPointer(bytes), meter: &meter) { collected.append($0..<$1) }
                }
            } else {
                search.appendNode(label: nil)
                collecting.appendNode(label: nil, meter: &meter) { _, _ in XCTFail("a node without a label has no range") }
            }
            XCTAssertEqual(search.matches.isMatch(found.count), !ranges.isEmpty, "\(label ?? "nil")", file: file, line: line)
            XCTAssertEqual(collected, ranges, "collected as matched: \(label ?? "nil")", file: file, line: line)
            XCTAssertEqual(collecting.matches, search.matches, file: file, line: line)
            found.append(ranges)
        }
        return found
    }

    func testAQueryThatFoldsToNothingIsRefused() {
        XCTAssertNil(OutlineSearch(folding: folding, query: "\u{301}\u{308}"))
        XCTAssertNil(OutlineSearch(folding: folding, query: " \u{301}\u{3000}", mode: .words))
        XCTAssertNotNil(OutlineSearch(folding: folding, query: "\u{301}", diacriticSensitive: true))
        XCTAssertNotNil(OutlineSearch(folding: folding, query: " ", mode: .substring))
    }

    func testFoldingFollowsTheRules() throws {
        let search = try XCTUnwrap(OutlineSearch(folding: folding, query: "strasse"))
        XCTAssertEqual(ranges(["STRAẞE", "Straße", "strasse", nil, ""], search), [[0..<6], [0..<6], [0..<7], [], []])
        let mark = try XCTUnwrap(OutlineSearch(folding: folding, query: "e", diacriticSensitive: true))
        XCTAssertEqual(ranges(["e\u{301}e", "ée"], mark), [[2..<3], [1..<2]])
        // "e" extended over the spacing mark after it reaches the mark's own range: they merge.
        let meeting = try XCTUnwrap(OutlineSearch(folding: folding, query: "e \u{903}", mode: .words))
        XCTAssertEqual(ranges(["xe\u{903}x", "e\u{903}\u{903}e"], meeting), [[1..<3], [0..<3, 3..<4]])
    }

    /// The ASCII fast path and the Unicode path give the same ranges: an ASCII label, then the same label
    /// followed by a CJK letter (which no ASCII query matches and which is no mark) so it takes the other path.
    func testTheASCIIPathAgreesWithTheUnicodePath() throws {
        var random = SplitMix64(seed: 16)
        let letters = Array("aAbBsS kK-")
        for _ in 0..<2_000 {
            let label = String((0..<Int.random(in: 0...12, using: &random)).map { _ in letters.randomElement(using: &random)! })
            let query = String((0..<Int.random(in: 1...3, using: &random)).map { _ in letters.randomElement(using: &random)! })
            let mode = OutlineSearchMode.allCases.randomElement(using: &random)!
            guard let search = OutlineSearch(folding: folding, query: query, mode: mode, caseSensitive: Bool.random(using: &random), diacriticSensitive: Bool.random(using: &random))
            else { continue }
            let both = ranges([label, label + "漢"], search)
            XCTAssertEqual(both[0], both[1], "\(query) in \(label), \(mode)")
        }
    }

    /// The ASCII moves fold each ASCII scalar to itself or, unless case-sensitive, to its lowercase letter:
    /// exactly what the full folding gives.
    func testASCIIScalarsFoldAsTheFullFoldingDoes() {
        for caseSensitive in [false, true] {
            for diacriticSensitive in [false, true] {
                for byte in 0..<128 {
                    var folded: [Unicode.Scalar] = []
                    OutlineFolding.fold(
                        Unicode.Scalar(UInt8(byte)), caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, into: &folded)
                    let expected = !caseSensitive && (65...90).contains(byte) ? byte + 32 : byte
                    XCTAssertEqual(folded.map(\.value), [UInt32(expected)], "\(byte)")
                }
            }
        }
    }

    /// Nested and overlapping terms (`words` over a two-letter alphabet, so terms are suffixes of one another
    /// everywhere) against a brute-force reference: each term's occurrences taken left to right without
    /// overlapping, every term required, overlapping ranges merged; on both the ASCII and the Unicode path.
    func testNestedTermsAgreeWithABruteForceReference() throws {
        var random = SplitMix64(seed: 23)
        let letters: [Character] = ["a", "b"]
        func word(_ count: Int) -> String { String((0..<count).map { _ in letters.randomElement(using: &random)! }) }
        for _ in 0..<3_000 {
            // Some labels long enough to be collected in the pass that matches them.
            let label = word(Int.random(in: 0...24, using: &random) + (Int.random(in: 0..<4, using: &random) == 0 ? 60 : 0))
            let terms = (0..<Int.random(in: 1...6, using: &random)).map { _ in word(Int.random(in: 1...5, using: &random)) }
            let search = try XCTUnwrap(OutlineSearch(folding: folding, query: terms.joined(separator: " "), mode: .words, caseSensitive: true))
            let expected = Self.reference(Array(label.utf8), terms.map { Array($0.utf8) })
            let both = ranges([label, label + "漢"], search)
            XCTAssertEqual(both[0], expected, "\(terms) in \(label)")
            XCTAssertEqual(both[1], expected, "\(terms) in \(label)漢")
        }
    }

    /// Ranges by brute force: each term's non-overlapping occurrences left to right; none when a term is missing.
    private static func reference(_ label: [UInt8], _ terms: [[UInt8]]) -> [Range<Int>] {
        var occurrences: [Range<Int>] = []
        for term in terms {
            var from = 0
            var found = false
            while from + term.count <= label.count {
                if Array(label[from..<(from + term.count)]) == term {
                    occurrences.append(from..<(from + term.count))
                    from += term.count
                    found = true
                } else {
                    from += 1
                }
            }
            if !found { return [] }
        }
        var merged: [Range<Int>] = []
        for range in occurrences.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    func testRowsAndExpansionWithMatches() throws {
        // The picker: 0 root [1, 5, 7] · 1 docs [2, 3] · 2 readme · 3 guides [4] · 4 intro · 5 src [6] · 6 main · 7 empty [] · 8 other
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        let matches = OutlineSearchMatches([false, true, false, false, true, false, false, false, true])
        XCTAssertEqual(matches.matchCount, 3)
        let rows = OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 2, matches: matches))
        XCTAssertEqual(rows, OutlineRowsOutput(rows: [
            OutlineFixtures.row(0, 0, depth: 0, parent: nil, expandable: true, expanded: true),
            OutlineFixtures.row(1, 1, depth: 1, parent: 0, expandable: true, expanded: true),
            OutlineFixtures.row(2, 3, depth: 2, parent: 1, expandable: true, expanded: true),
            OutlineFixtures.row(3, 4, depth: 3, parent: 3, expandable: false, expanded: false),
            OutlineFixtures.row(4, 8, depth: 0, parent: nil, expandable: false, expanded: false),
        ], totalRows: 5, selectedRow: nil))
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, matches: matches, offset: 3, limit: 1)).rows.map(\.node), [4])
        XCTAssertEqual(OutlineRows.compute(OutlineRowsInput(tree: tree, selection: 4, matches: matches, offset: 3, limit: 1)).selectedRow, 3)
        XCTAssertEqual(OutlineSearchExpansion.expansion(tree: tree, matches: matches), OutlineSearchExpansionOutput(expand: [0, 1, 3], matches: [1, 4, 8]))
    }
}

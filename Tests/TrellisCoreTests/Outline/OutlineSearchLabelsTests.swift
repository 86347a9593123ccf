import TrellisTestSupport
import XCTest
@testable import TrellisCore

/// The search's entry points (`OutlineSearchExpansion.compute(_:labels:meter:)`, `OutlineRows.compute(_:labels:meter:)`):
/// each node's label read through the caller's accessor, matched, and the answer's ranges kept in the output.
final class OutlineSearchLabelsTests: XCTestCase {
    private let folding = OutlineFolding()

    /// The picker's labels (0 root [1, 5, 7] · 1 docs [2, 3] · 2 readme · 3 guides [4] · 4 intro · 5 src [6] · 6 main
    /// · 7 no label · 8 other), as bytes that stay where they are while a computation reads them.
    private final class Labels {
        let buffers: [UnsafeMutableRawBufferPointer?]
        private(set) var reads = 0

        init(_ labels: [String?]) {
            buffers = labels.map { label in
                label.map { text in
                    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
                    buffer.copyBytes(from: Array(text.utf8))
                    return buffer
                }
            }
        }

        deinit { for buffer in buffers { buffer?.deallocate() } }

        func label(_ node: Int) -> UnsafeRawBufferPointer? {
            reads += 1
            return buffers[node].map { UnsafeRawBufferPointer($0) }
        }
    }

    private let picker: [String?] = ["root", "docs", "readme", "guides", "intro", "src", "main", nil, "other"]

    private func ranges(_ ranges: OutlineMatchRanges?, of entry: Int) -> [[Int]] {
        var found: [[Int]] = []
        ranges?.forEach(of: entry) { found.append([$0, $1]) }
        return found
    }

    /// The expansion opens every match's ancestors and keeps each match's ranges; each label is read once.
    func testTheExpansionReadsEachLabelOnceAndKeepsTheMatchesRanges() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        let labels = Labels(picker)
        var meter = WorkMeter()
        let search = try XCTUnwrap(OutlineSearch(folding: folding, query: "IN"))
        let expansion = try OutlineSearchExpansion.compute(
            OutlineSearchExpansionInput(tree: tree, search: search), labels: labels.label, meter: &meter
        ).get()
        XCTAssertEqual(expansion.expand, [0, 1, 3, 5])
        XCTAssertEqual(expansion.matches, [4, 6])
        XCTAssertEqual(ranges(expansion.ranges, of: 4), [[0, 2]])
        XCTAssertEqual(ranges(expansion.ranges, of: 6), [[2, 4]])
        XCTAssertEqual(ranges(expansion.ranges, of: 0), [])
        XCTAssertEqual(labels.reads, tree.count)
        XCTAssertGreaterThan(meter.steps, 0)
    }

    /// The rows are the matches and their ancestors, opened; a matching row in the window has its ranges, by its
    /// position among the rows.
    func testTheRowsOfASearchHaveTheirMatchesRanges() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        var meter = WorkMeter()
        let search = try XCTUnwrap(OutlineSearch(folding: folding, query: "in"))
        let rows = try OutlineRows.compute(
            OutlineRowsSearchInput(tree: tree, selection: 6, search: search, offset: 1), labels: Labels(picker).label, meter: &meter
        ).get()
        XCTAssertEqual(rows.rows.map(\.node), [1, 3, 4, 5, 6])
        XCTAssertEqual(rows.totalRows, 6)
        XCTAssertEqual(rows.selectedRow, 5)
        XCTAssertEqual(rows.matches?.matchCount, 2)
        XCTAssertEqual((0..<rows.rows.count).map { ranges(rows.ranges, of: $0) }, [[], [], [[0, 2]], [], [[2, 4]]])
    }

    /// Rule: a label longer than `maxLabelBytes` is refused: every such node, in order, and no answer.
    func testEveryLabelTooLongIsRefused() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        var long = picker
        long[2] = String(repeating: "a", count: OutlineSearch.maxLabelBytes + 1)
        long[8] = String(repeating: "é", count: OutlineSearch.maxLabelBytes / 2 + 1)
        long[6] = String(repeating: "i", count: OutlineSearch.maxLabelBytes)
        let search = try XCTUnwrap(OutlineSearch(folding: folding, query: "in"))
        var meter = WorkMeter()
        let expansion = OutlineSearchExpansion.compute(OutlineSearchExpansionInput(tree: tree, search: search), labels: Labels(long).label, meter: &meter)
        XCTAssertEqual(expansion, .failure(.labelsTooLong([2, 8])))
        let rows = OutlineRows.compute(OutlineRowsSearchInput(tree: tree, selection: nil, search: search), labels: Labels(long).label, meter: &meter)
        XCTAssertEqual(rows, .failure(.labelsTooLong([2, 8])))
    }

    /// Once the meter says stop, the search gives no answer.
    func testAStoppedMeterStopsTheSearch() throws {
        let tree = try OutlineTree(nodes: OutlineFixtures.picker)
        let search = try XCTUnwrap(OutlineSearch(folding: folding, query: "o"))
        var meter = WorkMeter(checkingEvery: 1) { true }
        let rows = OutlineRows.compute(OutlineRowsSearchInput(tree: tree, selection: nil, search: search), labels: Labels(picker).label, meter: &meter)
        XCTAssertEqual(rows, .failure(.stopped))
        var expansionMeter = WorkMeter(checkingEvery: 1) { true }
        let expansion = OutlineSearchExpansion.compute(
            OutlineSearchExpansionInput(tree: tree, search: search), labels: Labels(picker).label, meter: &expansionMeter)
        XCTAssertEqual(expansion, .failure(.stopped))
    }
}

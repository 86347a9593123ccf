import TrellisTestSupport
import TrellisCore
import XCTest

/// Balanced line breaking: against greedy and against brute force.
final class FlowBalancedTests: XCTestCase {
    private func counts(_ request: FlowInput) -> [Int] {
        FlowLayout.compute(request).rows.map(\.count)
    }

    func testBalancedEvensRows() {
        let items = Array(repeating: FlowItem(width: 10, height: 10), count: 10)
        XCTAssertEqual(counts(FlowInput(containerWidth: 90, items: items)), [9, 1])
        let balanced = FlowLayout.compute(FlowInput(containerWidth: 90, items: items, alignment: .center, lineBreaking: .balanced))
        XCTAssertEqual(balanced.rows.map(\.count), [5, 5])
        XCTAssertEqual(balanced.rows.map(\.width), [50, 50])
        XCTAssertEqual(balanced.items.first?.rect.x, 20, "alignment uses the real containerWidth")
    }

    func testTiesGiveEarlierRowsMoreItems() {
        let items = Array(repeating: FlowItem(width: 30, height: 10), count: 7)
        XCTAssertEqual(counts(FlowInput(containerWidth: 100, items: items, columnGap: 5, lineBreaking: .balanced)), [3, 3, 1])
    }

    /// Rule: a lone oversized cell cannot shrink, so other rows stay as narrow as greedy needs.
    func testOversizedCellDoesNotWidenOtherRows() {
        let items = [150.0, 40, 40, 40, 40].map { FlowItem(width: $0, height: 10) }
        XCTAssertEqual(counts(FlowInput(containerWidth: 100, items: items, lineBreaking: .balanced)), [1, 2, 2])
    }

    /// Decision: rows are balanced over all items first, then maxRows keeps the first rows.
    func testBalancedThenMaxRows() {
        let items = Array(repeating: FlowItem(width: 10, height: 10), count: 10)
        let result = FlowLayout.compute(FlowInput(containerWidth: 90, items: items, maxRows: 1, lineBreaking: .balanced))
        XCTAssertEqual(result.rows.map(\.count), [5])
        XCTAssertEqual(result.hiddenCount, 5)
    }

    func testForcedBreaksAreKept() {
        let items = (0..<6).map { FlowItem(width: 10, height: 10, breakBefore: $0 == 4) }
        XCTAssertEqual(counts(FlowInput(containerWidth: 100, items: items, lineBreaking: .balanced)), [4, 2])
        XCTAssertEqual(counts(FlowInput(containerWidth: 35, items: items, lineBreaking: .balanced)), [2, 2, 2])
    }

    func testSameRowCountAndNeverWiderThanGreedy() {
        var random = SplitMix64(seed: 11)
        for trial in 0..<400 {
            let sample = random.request(maxItems: 40)
            let greedy = FlowLayout.compute(sample.request())
            let balanced = FlowLayout.compute(sample.request(lineBreaking: .balanced))
            XCTAssertEqual(balanced.rows.count, greedy.rows.count, "trial \(trial)")
            XCTAssertLessThanOrEqual(balanced.rows.map(\.width).max() ?? 0, greedy.rows.map(\.width).max() ?? 0, "trial \(trial)")
            XCTAssertEqual(balanced.items.map(\.index), greedy.items.map(\.index), "trial \(trial)")
        }
    }

    /// Brute force over every partition: the widest row is minimal, and the rows are the lexicographically
    /// longest among partitions whose multi-cell rows fit the smallest feasible width (greedy at that width).
    func testOptimalAgainstBruteForce() {
        var random = SplitMix64(seed: 2024)
        for trial in 0..<500 {
            let sample = random.request(maxItems: 9, containerWidth: 0...120)
            let request = sample.request(lineBreaking: .balanced)
            let balanced = FlowLayout.compute(request)
            let rowLimit = FlowLayout.compute(sample.request()).rows.count
            let candidates = FlowReferenceModel.partitions(request).filter { $0.count <= rowLimit }
            let widths = candidates.map { FlowReferenceModel.rowWidths(request, lengths: $0) }
            let widest = widths.map { $0.max() ?? 0 }.min() ?? 0
            XCTAssertEqual(balanced.rows.map(\.width).max() ?? 0, widest, "trial \(trial)")

            let effective = zip(candidates, widths).map { lengths, widths in
                zip(lengths, widths).filter { $0.0 > 1 }.map(\.1).max() ?? 0
            }
            let best = effective.min() ?? 0
            let preferred = zip(candidates, effective).filter { $0.1 == best }.map(\.0)
                .max { $0.lexicographicallyPrecedes($1) } ?? []
            XCTAssertEqual(balanced.rows.map(\.count), preferred, "trial \(trial)")
        }
    }
}

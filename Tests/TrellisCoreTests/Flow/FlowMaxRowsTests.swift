import TrellisTestSupport
import TrellisCore
import XCTest

/// maxRows and the overflow indicator: hand cases and a naive reference model.
final class FlowMaxRowsTests: XCTestCase {
    /// Seven 30 × 10 items, gap 5, in 100: rows of 3, 3 and 1 (each full row exactly 100).
    private func sevenItems(maxRows: Int?, indicator: Size? = nil) -> FlowOutput {
        FlowLayout.compute(FlowInput(
            containerWidth: 100, items: Array(repeating: FlowItem(width: 30, height: 10), count: 7),
            columnGap: 5, maxRows: maxRows, overflowIndicator: indicator
        ))
    }

    func testMaxRowsWithoutIndicator() {
        let result = sevenItems(maxRows: 2)
        XCTAssertEqual(result.items.map(\.index), Array(0..<6))
        XCTAssertEqual(result.rows, [
            FlowRow(y: 0, height: 10, width: 100, start: 0, count: 3),
            FlowRow(y: 10, height: 10, width: 100, start: 3, count: 3),
        ])
        XCTAssertEqual(result.hiddenCount, 1)
        XCTAssertNil(result.overflowIndicator)
        XCTAssertEqual(result.size, Size(width: 100, height: 20))
    }

    /// The chip (20 × 16) needs 25 more: item 5 leaves the last row, the chip follows item 4 at 70.
    func testMaxRowsWithIndicator() {
        let result = sevenItems(maxRows: 2, indicator: Size(width: 20, height: 16))
        XCTAssertEqual(result.items.map(\.index), Array(0..<5))
        XCTAssertEqual(result.items.last?.rect, Rect(x: 35, y: 10, width: 30, height: 10))
        XCTAssertEqual(result.rows[1], FlowRow(y: 10, height: 16, width: 90, start: 3, count: 2))
        XCTAssertEqual(result.hiddenCount, 2)
        XCTAssertEqual(result.overflowIndicator, FlowOverflowIndicator(rect: Rect(x: 70, y: 10, width: 20, height: 16), count: 2))
        XCTAssertEqual(result.size.height, 26)
    }

    /// Decision: a chip wider than the container even alone gets the last visible row to itself, like any oversized cell.
    func testIndicatorThatCannotFitAloneTakesTheRowAlone() {
        let result = sevenItems(maxRows: 2, indicator: Size(width: 120, height: 16))
        XCTAssertEqual(result.items.map(\.index), [0, 1, 2])
        XCTAssertEqual(result.rows[1], FlowRow(y: 10, height: 16, width: 120, start: 3, count: 0))
        XCTAssertEqual(result.hiddenCount, 4)
        XCTAssertEqual(result.overflowIndicator, FlowOverflowIndicator(rect: Rect(x: 0, y: 10, width: 120, height: 16), count: 4))
    }

    /// Cells 32, 32 and the chip 12 with gap 3 use 82 of 100; trailing puts them at 18, 53, 88, then rtl mirrors.
    func testIndicatorIsAlignedAndMirroredLikeAnyCell() {
        let request = FlowInput(
            containerWidth: 100, items: Array(repeating: FlowItem(width: 30, height: 10), count: 7),
            horizontalSpacing: 1, columnGap: 3, alignment: .trailing, rowAlignment: .bottom, direction: .rtl,
            maxRows: 1, overflowIndicator: Size(width: 10, height: 4)
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(result.items.map(\.rect), [Rect(x: 51, y: 0, width: 30, height: 10), Rect(x: 16, y: 0, width: 30, height: 10)])
        XCTAssertEqual(result.overflowIndicator, FlowOverflowIndicator(rect: Rect(x: 1, y: 6, width: 10, height: 4), count: 5))
        XCTAssertEqual(result.rows, [FlowRow(y: 0, height: 10, width: 82, start: 0, count: 2)])
    }

    func testNothingHiddenMeansNoIndicator() {
        let result = sevenItems(maxRows: 3, indicator: Size(width: 20, height: 16))
        XCTAssertEqual(result, sevenItems(maxRows: nil))
        XCTAssertEqual(result.hiddenCount, 0)
        XCTAssertNil(result.overflowIndicator)
    }

    func testIndicatorWithoutMaxRowsIsIgnored() {
        XCTAssertEqual(sevenItems(maxRows: nil, indicator: Size(width: 20, height: 16)), sevenItems(maxRows: nil))
    }

    func testAgainstReferenceModel() {
        var random = SplitMix64(seed: 77)
        for trial in 0..<600 {
            let sample = random.request(maxItems: 16, containerWidth: 0...160)
            let maxRows = Int.random(in: 1...4, using: &random)
            let indicator = random.chance(0.7)
                ? Size(width: random.chance(0.15) ? random.quarter(150, 220) : random.quarter(0, 40), height: random.quarter(0, 30))
                : nil
            let request = sample.request(maxRows: maxRows, overflowIndicator: indicator)
            let result = FlowLayout.compute(request)
            let model = FlowReferenceModel.layout(request)
            let message = "trial \(trial)"
            XCTAssertEqual(result.rows.map(\.count), model.rows.map(\.count), message)
            XCTAssertEqual(result.rows.map(\.start), model.rows.map { $0.first ?? (result.items.count) }, message)
            XCTAssertEqual(result.hiddenCount, model.hiddenCount, message)
            XCTAssertEqual(result.items.map(\.index), model.rows.flatMap { $0 }, message)
            for item in result.items {
                XCTAssertEqual(item.rect, model.rects[item.index], message)
            }
            XCTAssertEqual(result.overflowIndicator, model.indicator, message)
        }
    }
}

import TrellisCore
import XCTest

/// Rule "labelled chip": the chip's size depends on the count it shows.
final class FlowLabelledChipTests: XCTestCase {
    private func request(_ widths: [Double], container: Double) -> FlowInput {
        FlowInput(containerWidth: container, items: widths.map { FlowItem(width: $0, height: 10) }, maxRows: 1)
    }

    func testTheCountIsStable() {
        // "+{n}" is 10 px per digit plus 10.
        let chip: (Int) -> Size = { Size(width: Double(String($0).count * 10 + 10), height: 10) }
        for container in stride(from: 0.0, through: 200, by: 7) {
            let result = FlowLayout.compute(request(Array(repeating: 9, count: 30), container: container), chipForCount: chip)
            if let indicator = result.overflowIndicator {
                XCTAssertEqual(indicator.count, result.hiddenCount)
                XCTAssertEqual(indicator.rect.width, chip(result.hiddenCount).width, "container \(container)")
            }
        }
    }

    func testAWiderLabelThatHidesOneMoreIsRelabelled() {
        // Nineteen 10 px items in 100 px: "+0" (20 px) leaves 8 items, 11 hidden; "+11" (30 px) leaves 7,
        // 12 hidden; "+12" (30 px) leaves 7 again: the count is stable at 12.
        let chip: (Int) -> Size = { Size(width: Double(String($0).count * 10 + 10), height: 10) }
        let result = FlowLayout.compute(request(Array(repeating: 10, count: 19), container: 100), chipForCount: chip)
        XCTAssertEqual(result.hiddenCount, 12)
        XCTAssertEqual(result.overflowIndicator?.rect.width, 30)
        XCTAssertEqual(result.overflowIndicator?.count, 12)
    }

    func testACycleTakesTheLargerCount() {
        // Five 20 px items in 80 px on one row: a 5 px chip leaves 3 items (2 hidden), a 25 px chip 2 (3 hidden).
        // A pathological label, narrow only for "+3": "+0" hides 3, "+3" hides 2, "+2" hides 3 again: the
        // cycle {3, 2} never settles, so the larger count, 3, labels the chip.
        var calls: [Int] = []
        let chip: (Int) -> Size = { count in
            calls.append(count)
            return Size(width: count == 3 ? 5 : 25, height: 10)
        }
        let result = FlowLayout.compute(request([20, 20, 20, 20, 20], container: 80), chipForCount: chip)
        XCTAssertEqual(calls, [0, 3, 2, 3])
        XCTAssertEqual(result.overflowIndicator?.rect.width, 5)
        XCTAssertEqual(result.hiddenCount, 2)
    }

    func testWithoutMaxRowsTheChipIsNeverMeasured() {
        var measured = false
        let result = FlowLayout.compute(
            FlowInput(containerWidth: 10, items: [FlowItem(width: 20, height: 1)]),
            chipForCount: { _ in measured = true; return Size(width: 1, height: 1) })
        XCTAssertFalse(measured)
        XCTAssertEqual(result.hiddenCount, 0)
    }
}

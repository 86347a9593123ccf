import TrellisTestSupport
import TrellisCore
import XCTest

/// Hand-computed layouts with whole expected values.
final class FlowLayoutTests: XCTestCase {
    private func rects(_ result: FlowOutput) -> [[Double]] {
        result.items.map { [$0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height] }
    }

    private func items(_ sizes: [(Double, Double)], breaks: Set<Int> = []) -> [FlowItem] {
        sizes.enumerated().map { FlowItem(width: $0.element.0, height: $0.element.1, breakBefore: breaks.contains($0.offset)) }
    }

    /// The seed's tags (Swift, SwiftUI, UIKit, Xcode, Apple, iOS, iPad), 36 high, in 300 with spacing 4.
    /// Cells are 70, 92, 74 | 76, 74, 58, 64: 236 fits, +76 = 312 does not; the second row is 272.
    func testSeedExampleCheckedByHand() {
        let request = FlowInput(
            containerWidth: 300,
            items: items([(62, 36), (84, 36), (66, 36), (68, 36), (66, 36), (50, 36), (56, 36)]),
            horizontalSpacing: 4,
            verticalSpacing: 4
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [
            [4, 4, 62, 36], [74, 4, 84, 36], [166, 4, 66, 36],
            [4, 48, 68, 36], [80, 48, 66, 36], [154, 48, 50, 36], [212, 48, 56, 36],
        ])
        XCTAssertEqual(result.items.map(\.row), [0, 0, 0, 1, 1, 1, 1])
        XCTAssertEqual(result.items.map(\.index), Array(0..<7))
        XCTAssertEqual(result.rows, [
            FlowRow(y: 0, height: 44, width: 236, start: 0, count: 3),
            FlowRow(y: 44, height: 44, width: 272, start: 3, count: 4),
        ])
        XCTAssertEqual(result.size, Size(width: 300, height: 88))
        XCTAssertEqual(result.hiddenCount, 0)
        XCTAssertNil(result.overflowIndicator)
    }

    func testForcedBreaks() {
        let request = FlowInput(
            containerWidth: 200, items: items(Array(repeating: (40, 20), count: 5), breaks: [1, 3, 4]),
            columnGap: 10, rowGap: 5
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[0, 0, 40, 20], [0, 25, 40, 20], [50, 25, 40, 20], [0, 50, 40, 20], [0, 75, 40, 20]])
        XCTAssertEqual(result.rows.map(\.count), [1, 2, 1, 1])
        XCTAssertEqual(result.rows.map(\.width), [40, 90, 40, 40])
        XCTAssertEqual(result.size, Size(width: 200, height: 95))
    }

    func testForcedBreakOnFirstItemAddsNoEmptyRow() {
        let request = FlowInput(
            containerWidth: 200, items: items(Array(repeating: (40, 20), count: 3), breaks: [0]), columnGap: 10
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(result.rows, [FlowRow(y: 0, height: 20, width: 140, start: 0, count: 3)])
    }

    func testForcedBreakThenWrap() {
        let request = FlowInput(
            containerWidth: 100, items: items([(40, 10), (40, 10), (40, 10), (10, 10), (95, 10)], breaks: [3]),
            horizontalSpacing: 1, verticalSpacing: 2, columnGap: 5, rowGap: 3
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[1, 2, 40, 10], [48, 2, 40, 10], [1, 19, 40, 10], [1, 36, 10, 10], [1, 53, 95, 10]])
        XCTAssertEqual(result.size.height, 65)
    }

    func testExactFitStays() {
        let request = FlowInput(containerWidth: 300, items: items(Array(repeating: (90, 10), count: 4)), horizontalSpacing: 5)
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[5, 0, 90, 10], [105, 0, 90, 10], [205, 0, 90, 10], [5, 10, 90, 10]])
        XCTAssertEqual(result.rows.map(\.width), [300, 100])
    }

    func testExactFitWithGaps() {
        let request = FlowInput(containerWidth: 100, items: items(Array(repeating: (30, 10), count: 4)), columnGap: 5)
        XCTAssertEqual(FlowLayout.compute(request).rows.map(\.count), [3, 1])
    }

    /// Rule "Greedy wrapping": the tolerance is 1e-9 × max(1, containerWidth), here 3e-7.
    func testWrapTolerance() {
        let within = FlowInput(containerWidth: 300, items: items([(100, 1), (100, 1), (100.000_000_1, 1)]))
        let beyond = FlowInput(containerWidth: 300, items: items([(100, 1), (100, 1), (100.000_001, 1)]))
        XCTAssertEqual(FlowLayout.compute(within).rows.map(\.count), [3])
        XCTAssertEqual(FlowLayout.compute(beyond).rows.map(\.count), [2, 1])
        let tinyWithin = FlowInput(containerWidth: 0.5, items: items([(0.25, 1), (0.250_000_000_9, 1)]))
        let tinyBeyond = FlowInput(containerWidth: 0.5, items: items([(0.25, 1), (0.250_000_001_1, 1)]))
        XCTAssertEqual(FlowLayout.compute(tinyWithin).rows.map(\.count), [2], "below 1 the tolerance stays 1e-9")
        XCTAssertEqual(FlowLayout.compute(tinyBeyond).rows.map(\.count), [1, 1])
    }

    func testOversizedItemFirst() {
        let request = FlowInput(containerWidth: 200, items: items([(250, 10), (50, 10), (50, 10)]), columnGap: 10, rowGap: 10)
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[0, 0, 250, 10], [0, 20, 50, 10], [60, 20, 50, 10]])
        XCTAssertEqual(result.rows.map(\.width), [250, 110])
        XCTAssertEqual(result.size, Size(width: 200, height: 30))
    }

    func testOversizedItemInTheMiddle() {
        let request = FlowInput(containerWidth: 200, items: items([(50, 10), (250, 10), (50, 10)]), columnGap: 10, rowGap: 10)
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[0, 0, 50, 10], [0, 20, 250, 10], [0, 40, 50, 10]])
        XCTAssertEqual(result.size.height, 50)
    }

    func testOversizedItemLast() {
        let request = FlowInput(containerWidth: 200, items: items([(50, 10), (50, 10), (250, 10)]), columnGap: 10, rowGap: 10)
        let result = FlowLayout.compute(request)
        XCTAssertEqual(rects(result), [[0, 0, 50, 10], [60, 0, 50, 10], [0, 20, 250, 10]])
        XCTAssertEqual(result.rows.map(\.width), [110, 250])
    }

    /// Cells 40 wide with heights 14, 34, 24 | 9, 29 (verticalSpacing 2); rows 34 and 29 high, the second at 39.
    private func mixedHeights(_ rowAlignment: FlowRowAlignment) -> FlowOutput {
        FlowLayout.compute(FlowInput(
            containerWidth: 150, items: items([(40, 10), (40, 30), (40, 20), (40, 5), (40, 25)]),
            verticalSpacing: 2, columnGap: 5, rowGap: 5, rowAlignment: rowAlignment
        ))
    }

    func testMixedHeightsTop() {
        let result = mixedHeights(.top)
        XCTAssertEqual(rects(result), [[0, 2, 40, 10], [45, 2, 40, 30], [90, 2, 40, 20], [0, 41, 40, 5], [45, 41, 40, 25]])
        XCTAssertEqual(result.rows, [
            FlowRow(y: 0, height: 34, width: 130, start: 0, count: 3),
            FlowRow(y: 39, height: 29, width: 85, start: 3, count: 2),
        ])
        XCTAssertEqual(result.size.height, 68)
    }

    func testMixedHeightsCenter() {
        XCTAssertEqual(rects(mixedHeights(.center)), [
            [0, 12, 40, 10], [45, 2, 40, 30], [90, 7, 40, 20], [0, 51, 40, 5], [45, 41, 40, 25],
        ])
    }

    func testMixedHeightsBottom() {
        XCTAssertEqual(rects(mixedHeights(.bottom)), [
            [0, 22, 40, 10], [45, 2, 40, 30], [90, 12, 40, 20], [0, 61, 40, 5], [45, 41, 40, 25],
        ])
    }

    /// Rows of cells 50, 30, 40 (used 140, free 60) and a single cell 60 (free 140), gap 10, in 200.
    func testEveryAlignmentIncludingSingleCellRows() {
        let expected: [FlowAlignment: [Double]] = [
            .leading: [0, 60, 100, 0],
            .center: [30, 90, 130, 70],
            .trailing: [60, 120, 160, 140],
            .spaceBetween: [0, 90, 160, 0],
            .spaceAround: [10, 90, 150, 70],
            .spaceEvenly: [15, 90, 145, 70],
        ]
        for alignment in FlowAlignment.allCases {
            let request = FlowInput(
                containerWidth: 200, items: items([(50, 10), (30, 10), (40, 10), (60, 10)]),
                columnGap: 10, rowGap: 4, alignment: alignment
            )
            let result = FlowLayout.compute(request)
            XCTAssertEqual(result.items.map(\.rect.x), expected[alignment], "\(alignment)")
            XCTAssertEqual(result.items.map(\.rect.y), [0, 0, 0, 14], "\(alignment)")
            XCTAssertEqual(result.rows.map(\.width), [140, 60], "\(alignment)")
        }
    }

    /// Cells 54 | 254 (overflows 200 by 54) | 34, 24 with gap 10; the overflowing row starts at the leading edge.
    func testEveryAlignmentWithAnOverflowingRow() {
        let expected: [FlowAlignment: [Double]] = [
            .leading: [2, 2, 2, 46],
            .center: [75, 2, 68, 112],
            .trailing: [148, 2, 134, 178],
            .spaceBetween: [2, 2, 2, 178],
            .spaceAround: [75, 2, 35, 145],
            .spaceEvenly: [75, 2, 46, 134],
        ]
        for alignment in FlowAlignment.allCases {
            for direction in FlowDirection.allCases {
                let request = FlowInput(
                    containerWidth: 200, items: items([(50, 10), (250, 10), (30, 10), (20, 10)]),
                    horizontalSpacing: 2, columnGap: 10, rowGap: 4, alignment: alignment, direction: direction
                )
                let result = FlowLayout.compute(request)
                let ltr = expected[alignment] ?? []
                let xs = direction == .ltr ? ltr : zip(ltr, [50.0, 250, 30, 20]).map { 200 - $0 - $1 }
                XCTAssertEqual(result.items.map(\.rect.x), xs, "\(alignment) \(direction)")
                XCTAssertEqual(result.rows.map(\.count), [1, 1, 2])
            }
        }
    }

    func testRtlOverflowingRowHangsOffTheLeft() {
        let request = FlowInput(containerWidth: 200, items: items([(250, 10)]), horizontalSpacing: 2, alignment: .center, direction: .rtl)
        XCTAssertEqual(rects(FlowLayout.compute(request)), [[-52, 0, 250, 10]])
    }

    func testRtlIsTheMirrorOfLtr() {
        var random = SplitMix64(seed: 4)
        for _ in 0..<300 {
            let sample = random.request(maxItems: 14)
            let alignment = FlowAlignment.allCases.randomElement(using: &random) ?? .leading
            let rowAlignment = FlowRowAlignment.allCases.randomElement(using: &random) ?? .top
            let ltr = FlowLayout.compute(sample.request(alignment: alignment, rowAlignment: rowAlignment))
            let rtl = FlowLayout.compute(sample.request(alignment: alignment, rowAlignment: rowAlignment, direction: .rtl))
            XCTAssertEqual(rtl.rows, ltr.rows)
            XCTAssertEqual(rtl.size, ltr.size)
            XCTAssertEqual(rtl.items.map(\.index), ltr.items.map(\.index))
            for (mirror, original) in zip(rtl.items, ltr.items) {
                XCTAssertEqual(mirror.rect.x, sample.containerWidth - original.rect.x - original.rect.width, accuracy: 1e-9)
                XCTAssertEqual(mirror.rect.y, original.rect.y)
                XCTAssertEqual(mirror.rect.width, original.rect.width)
            }
        }
    }

    func testNoItems() {
        let result = FlowLayout.compute(FlowInput(containerWidth: 100, items: [], rowGap: 5, maxRows: 2, overflowIndicator: Size(width: 10, height: 10)))
        XCTAssertEqual(result, FlowOutput(items: [], rows: [], size: Size(width: 100, height: 0), hiddenCount: 0, overflowIndicator: nil))
        let balanced = FlowLayout.compute(FlowInput(containerWidth: 100, items: [], lineBreaking: .balanced, pixelScale: 2))
        XCTAssertEqual(balanced.rows, [])
    }

    func testZeroContainerWidth() {
        let result = FlowLayout.compute(FlowInput(containerWidth: 0, items: items([(10, 10), (0, 5), (20, 8)]), rowGap: 2))
        XCTAssertEqual(rects(result), [[0, 0, 10, 10], [0, 12, 0, 5], [0, 19, 20, 8]])
        XCTAssertEqual(result.size, Size(width: 0, height: 27))
    }

    func testZeroContainerWidthKeepsZeroWidthCellsTogether() {
        let result = FlowLayout.compute(FlowInput(containerWidth: 0, items: items([(0, 10), (0, 6), (0, 8)])))
        XCTAssertEqual(result.rows, [FlowRow(y: 0, height: 10, width: 0, start: 0, count: 3)])
    }

    func testHundredThousandItems() {
        var random = SplitMix64(seed: 100_000)
        let many = (0..<100_000).map { _ in FlowItem(width: random.quarter(10, 120), height: random.quarter(10, 40)) }
        let clock = ContinuousClock()
        var greedy: FlowOutput?
        var balanced: FlowOutput?
        let greedyTime = clock.measure {
            greedy = FlowLayout.compute(FlowInput(containerWidth: 375, items: many, horizontalSpacing: 4, columnGap: 4))
        }
        let balancedTime = clock.measure {
            balanced = FlowLayout.compute(FlowInput(
                containerWidth: 375, items: many, horizontalSpacing: 4, columnGap: 4, lineBreaking: .balanced
            ))
        }
        XCTAssertEqual(greedy?.items.count, 100_000)
        XCTAssertEqual(balanced?.rows.count, greedy?.rows.count)
        XCTAssertLessThan(greedyTime, .seconds(5))
        XCTAssertLessThan(balancedTime, .seconds(30))
        print("100,000 items: greedy \(greedyTime), balanced \(balancedTime)")
    }
}

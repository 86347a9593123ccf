import TrellisTestSupport
import TrellisCore
import XCTest

/// pixelScale: absolute edges rounded to the device-pixel grid, sizes derived from rounded edges.
final class FlowSnappingTests: XCTestCase {
    /// Exact edges 0, 1.3, 2.6, 3.9 at scale 2 round to 0, 1.5, 2.5, 4.
    func testSnapsEdgesAndDerivesSizes() {
        let request = FlowInput(
            containerWidth: 10.2, items: Array(repeating: FlowItem(width: 1.3, height: 1.3), count: 3), pixelScale: 2
        )
        let result = FlowLayout.compute(request)
        XCTAssertEqual(result.items.map(\.rect), [
            Rect(x: 0, y: 0, width: 1.5, height: 1.5),
            Rect(x: 1.5, y: 0, width: 1, height: 1.5),
            Rect(x: 2.5, y: 0, width: 1.5, height: 1.5),
        ])
        XCTAssertEqual(result.rows, [FlowRow(y: 0, height: 1.5, width: 4, start: 0, count: 3)])
        XCTAssertEqual(result.size, Size(width: 10, height: 1.5))
    }

    func testWithoutPixelScaleNumbersAreExact() {
        let request = FlowInput(containerWidth: 1, items: Array(repeating: FlowItem(width: 0.1, height: 0.1), count: 3), alignment: .spaceEvenly)
        XCTAssertEqual(FlowLayout.compute(request).items.first?.rect.x, 0.7 / 4)
    }

    func testNoGapsOrOverlapsAndHalfPixelAccuracy() {
        var random = SplitMix64(seed: 3)
        for trial in 0..<400 {
            var sample = random.request(maxItems: 20)
            let thirds = random.chance(0.5)
            sample.items = sample.items.map { (thirds ? $0.width / 3 : $0.width, $0.height / 3, $0.breakBefore) }
            if random.chance(0.5) {
                sample.horizontalSpacing = 0
                sample.columnGap = 0
                sample.rowGap = 0
            }
            let scales: [Double] = [1, 2, 3, 1.5, 0.5]
            let scale = scales.randomElement(using: &random) ?? 1
            let alignment = FlowAlignment.allCases.randomElement(using: &random) ?? .leading
            let rowAlignment = FlowRowAlignment.allCases.randomElement(using: &random) ?? .top
            let direction = FlowDirection.allCases.randomElement(using: &random) ?? .ltr
            let exact = FlowLayout.compute(sample.request(alignment: alignment, rowAlignment: rowAlignment, direction: direction))
            let snapped = FlowLayout.compute(sample.request(
                alignment: alignment, rowAlignment: rowAlignment, direction: direction, pixelScale: scale
            ))
            let message = "trial \(trial) scale \(scale)"
            XCTAssertEqual(snapped.items.map(\.index), exact.items.map(\.index), message)
            XCTAssertEqual(snapped.rows.map(\.count), exact.rows.map(\.count), message)
            let half = 0.5 / scale + 1e-9
            for (s, e) in zip(snapped.items.map(\.rect), exact.items.map(\.rect)) {
                let edges: [(Double, Double)] = [
                    (s.x, e.x), (s.y, e.y), (s.x + s.width, e.x + e.width), (s.y + s.height, e.y + e.height),
                ]
                for (edge, exactEdge) in edges {
                    XCTAssertEqual(edge, exactEdge, accuracy: half, message)
                    XCTAssertEqual((edge * scale).rounded(), edge * scale, accuracy: 1e-9, "on the grid: \(message)")
                }
            }
            // Rounding is monotone, so neighbours that touched still touch and neighbours apart never overlap
            // (up to the last bit of x + width, since width = right − left at scales like 3 is not exact in binary).
            let noise = 1e-9
            for k in snapped.items.indices.dropLast() where snapped.items[k].row == snapped.items[k + 1].row {
                let (a, b) = (exact.items[k].rect, exact.items[k + 1].rect)
                let (sa, sb) = (snapped.items[k].rect, snapped.items[k + 1].rect)
                let exactGap: Double = direction == .ltr ? b.x - (a.x + a.width) : a.x - (b.x + b.width)
                let snappedGap: Double = direction == .ltr ? sb.x - (sa.x + sa.width) : sa.x - (sb.x + sb.width)
                if exactGap == 0 {
                    XCTAssertEqual(snappedGap, 0, accuracy: noise, message)
                } else if exactGap > 0 {
                    XCTAssertGreaterThanOrEqual(snappedGap, -noise, message)
                }
            }
            for k in snapped.rows.indices.dropLast() {
                let gap = snapped.rows[k + 1].y - (snapped.rows[k].y + snapped.rows[k].height)
                XCTAssertEqual(gap, sample.rowGap, accuracy: 1 / scale, message)
                if sample.rowGap == 0 {
                    XCTAssertEqual(gap, 0, accuracy: noise, message)
                }
            }
            XCTAssertEqual(snapped.size.height, snapped.rows.last.map { $0.y + $0.height } ?? 0, message)
        }
    }
}

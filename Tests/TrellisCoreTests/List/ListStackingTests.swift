import TrellisCore
import TrellisTestSupport
import XCTest

/// The list's arithmetic against a reference model written the slow, obvious way, and against lengths
/// Chromium reported for the same rows.
final class ListStackingTests: XCTestCase {
    /// Chromium 156 (headless, a flex column of border-box rows) reported these heights for these lengths:
    /// each length truncated to 1/64 px after becoming a float.
    func testLengthsBecomeLayoutUnitsAsChromiumsDo() {
        XCTAssertEqual(ListLength.layoutUnit(0.1), 6.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(3.3), 211.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(1.0 / 3), 21.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(0.999), 63.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(0.01), 0)
        XCTAssertEqual(ListLength.layoutUnit(0.123456), 7.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(12.25), 12.25)
        // A double just under 9/64 that rounds up to it as a float: Blink sees 9/64.
        XCTAssertEqual(ListLength.layoutUnit(0.140624999999), 9.0 / 64)
        XCTAssertEqual(ListLength.layoutUnit(.infinity), 0)
        // Line heights are rounded instead: Chromium drew 17.01 px lines 17.015625 high, 17.3 px ones 17.296875.
        XCTAssertEqual(ListLength.lineHeight(17.01), 1089.0 / 64)
        XCTAssertEqual(ListLength.lineHeight(17.3), 1107.0 / 64)
        XCTAssertEqual(ListLength.lineHeight(16.99), 1087.0 / 64)
        XCTAssertEqual(ListLength.lineHeight(22.5), 22.5)
    }

    /// Three rows of two 19 px paragraphs, padding 3.3, paragraph gap 2.9, extra 5.55, gap 1.7: Chromium's
    /// rows were 53.03125 high at tops 0, 54.71875 and 109.4375.
    func testRowsStackAsChromiumStackedThem() {
        let chrome = ListRowChrome(top: 3.3, bottom: 3.3, leading: 3.3, trailing: 3.3, extraHeight: 5.55)
        let text = 19 + ListLength.layoutUnit(2.9) + 19
        let height = ListStacking.rowHeight(text: text, chrome)
        XCTAssertEqual(height, 53.03125)
        let output = ListStacking.compute(ListStackingInput(heights: [height, height, height], gap: 1.7))
        XCTAssertEqual(output.offsets, [0, 54.71875, 109.4375])
        XCTAssertEqual(output.total, 109.4375 + 53.03125)
        XCTAssertEqual(ListStacking.rowHeight(text: 10, ListRowChrome(top: 1, bottom: 1, minHeight: 44)), 44)
        XCTAssertEqual(chrome.textWidth(in: 5), 0)
        XCTAssertEqual(chrome.textWidth(in: 300), 300 - 2 * 211.0 / 64)
    }

    func testEmptyListsAndOneRow() {
        let empty = ListStacking.compute(ListStackingInput(heights: [], gap: 8, scroll: ListScroll(offset: 100, viewportHeight: 50, overscan: 3)))
        XCTAssertEqual(empty.total, 0)
        XCTAssertEqual(empty.offsets, [])
        XCTAssertEqual(empty.window, ListWindow(start: 0, end: 0))
        let one = ListStacking.compute(ListStackingInput(
            heights: [30], gap: 8, scroll: ListScroll(offset: 0, viewportHeight: 50), anchor: ListAnchor(index: 0, offset: -4)))
        XCTAssertEqual(one.total, 30)
        XCTAssertEqual(one.window, ListWindow(start: 0, end: 1))
        XCTAssertEqual(one.anchor, ListAnchorPosition(index: 0, scrollOffset: -4))
    }

    /// Windows and anchors on random lists (heights and gaps on and off the 1/64 grid, zero heights, scroll
    /// offsets before, inside, between and past the rows) equal the reference model's.
    func testWindowsAndAnchorsMatchTheReferenceModel() {
        var rng = SplitMix64(seed: 0x11_57)
        var nonEmptyWindows = 0
        var clamped = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...30, using: &rng)
            let heights = (0..<count).map { _ in randomLength(&rng, zeroes: 0.15) }
            let gap = Bool.random(using: &rng) ? 0 : randomLength(&rng, zeroes: 0)
            let model = Model(heights: heights, gap: ListLength.layoutUnit(gap))
            let viewport = Bool.random(using: &rng) ? randomLength(&rng, zeroes: 0.1) * 3 : model.total * Double.random(in: 0...1.2, using: &rng)
            var offset = Double.random(in: -50...(model.total + 80), using: &rng)
            if count > 0 && Bool.random(using: &rng) {
                // Exactly on a row's top or bottom, where half-open intervals matter.
                let row = Int.random(in: 0..<count, using: &rng)
                offset = model.offsets[row] + (Bool.random(using: &rng) ? 0 : heights[row])
            }
            let overscan = Int.random(in: 0...4, using: &rng)
            let anchor = count > 0 && Bool.random(using: &rng)
                ? ListAnchor(index: Int.random(in: 0..<count, using: &rng), offset: Double.random(in: -40...40, using: &rng)) : nil
            let scroll = ListScroll(offset: offset, viewportHeight: viewport, overscan: overscan)
            let output = ListStacking.compute(ListStackingInput(heights: heights, gap: gap, scroll: scroll, anchor: anchor))
            XCTAssertEqual(output.offsets, model.offsets)
            XCTAssertEqual(output.total, model.total)
            var expectedAnchor: ListAnchorPosition?
            var position = offset
            if let anchor {
                expectedAnchor = ListAnchorPosition(index: anchor.index, scrollOffset: model.offsets[anchor.index] + anchor.offset)
                position = model.offsets[anchor.index] + anchor.offset
            }
            XCTAssertEqual(output.anchor, expectedAnchor)
            let expected = model.window(at: position, viewport: viewport, overscan: overscan)
            XCTAssertEqual(output.window, expected, "heights \(heights) gap \(gap) offset \(position) viewport \(viewport)")
            if let window = output.window, window.end > window.start { nonEmptyWindows += 1 }
            if position > model.total - viewport || position < 0 { clamped += 1 }
        }
        XCTAssertGreaterThan(nonEmptyWindows, 10_000)
        XCTAssertGreaterThan(clamped, 3_000)
    }

    /// Scrolling a row into view against a model that tries every scroll offset: the nearest one (the least move) from
    /// which the row is wholly in view, or, when it cannot be (taller than the viewport), its top at the viewport's top.
    func testScrollIntoViewMovesTheLeastThatShowsTheRow() {
        var rng = SplitMix64(seed: 0x11_58)
        for _ in 0..<5_000 {
            let total = Double(Int.random(in: 0...400, using: &rng))
            let height = Double(Int.random(in: 0...60, using: &rng))
            let top = Double(Int.random(in: 0...max(0, Int(total - height)), using: &rng))
            let viewport = Double(Int.random(in: 1...200, using: &rng))
            let current = Double(Int.random(in: -20...420, using: &rng))
            let got = ListStacking.scrollIntoView(top: top, height: height, total: total, ListScroll(offset: current, viewportHeight: viewport))
            let range = max(0, total - viewport)
            let start = min(max(current, 0), range)
            var expected: Double
            if height >= viewport {
                expected = min(top, range)
            } else {
                // Every whole offset in the scroll range that shows the row whole; the nearest to where the list is.
                let showing = stride(from: 0.0, through: range, by: 1).filter { $0 <= top && top + height <= $0 + viewport }
                expected = showing.min { abs($0 - start) < abs($1 - start) } ?? min(top, range)
            }
            XCTAssertEqual(got, expected, "top \(top) height \(height) total \(total) viewport \(viewport) at \(current)")
        }
    }

    /// Random lengths: often on the 1/4 px grid, sometimes anywhere, sometimes 0.
    private func randomLength(_ rng: inout SplitMix64, zeroes: Double) -> Double {
        if Double.random(in: 0..<1, using: &rng) < zeroes { return 0 }
        if Bool.random(using: &rng) { return Double(Int.random(in: 1...400, using: &rng)) / 4 }
        return ListLength.layoutUnit(Double.random(in: 0.01...120, using: &rng))
    }

    /// The reference model: every row tested one by one.
    private struct Model {
        var heights: [Double]
        var offsets: [Double] = []
        var total = 0.0

        init(heights: [Double], gap: Double) {
            self.heights = heights
            var top = 0.0
            for (index, height) in heights.enumerated() {
                offsets.append(top)
                top += height
                if index < heights.count - 1 { top += gap }
            }
            total = heights.isEmpty ? 0 : top
        }

        func window(at offset: Double, viewport: Double, overscan: Int) -> ListWindow {
            var top = offset
            if top > total - viewport { top = total - viewport }
            if top < 0 { top = 0 }
            let shown = heights.indices.filter { offsets[$0] < top + viewport && offsets[$0] + heights[$0] > top }
            var start: Int
            var end: Int
            if let first = shown.first, let last = shown.last {
                start = first
                end = last + 1
            } else {
                // No row shown: the empty window after every row that ends at or above the viewport's top.
                start = heights.indices.filter { offsets[$0] + heights[$0] <= top }.count
                end = start
            }
            start = max(0, start - overscan)
            end = min(heights.count, end + overscan)
            return ListWindow(start: start, end: end)
        }
    }
}

/// A virtualized list's geometry, as a browser stacks rows of text: each row's height from its paragraphs
/// and chrome, rows one below the other with a gap between them, the rows a viewport shows, and the scroll
/// offset that keeps a row in place when the heights change.
///
/// Rows are `box-sizing: border-box` blocks in a flex column with `row-gap`; a row's paragraphs are a flex
/// column with `row-gap` too, followed by a block of the extra height. Every length is a LayoutUnit
/// (`ListLength`), so the sums are exact.
public enum ListStacking {
    /// The rows stacked: offsets and the total, then the window and the anchor's scroll offset when asked for.
    /// Time O(rows) for the offsets, O(log rows) for the window.
    public static func compute(_ input: ListStackingInput) -> ListStackingOutput {
        let gap = ListLength.layoutUnit(input.gap)
        let (offsets, total) = stack(input.heights, gap: gap)
        let anchor = input.anchor.map { anchorPosition(offsets, $0) }
        var shown: ListWindow?
        if var scroll = input.scroll {
            // Rule: with an anchor, the rows to render are those shown once scrolled to keep it in place.
            if let anchor { scroll.offset = anchor.scrollOffset }
            shown = window(input.heights, offsets, total: total, scroll)
        }
        return ListStackingOutput(heights: input.heights, offsets: offsets, total: total, window: shown, anchor: anchor)
    }

    /// Rule: a row's height is its top padding, its paragraphs' heights with the paragraph gap between
    /// each two (`text`), its bottom padding and its extra height, and at least its minimum height.
    public static func rowHeight(text: Double, _ chrome: ListRowChrome) -> Double {
        max(chrome.minHeight, chrome.top + text + chrome.bottom + chrome.extraHeight)
    }

    /// Rule: the first row's top is 0; each next row's top is the previous row's top, its height and the
    /// gap; the list's height is the last row's bottom (no gap after it), 0 for no rows.
    public static func stack(_ heights: [Double], gap: Double) -> (offsets: [Double], total: Double) {
        stack(count: heights.count, gap: gap) { heights[$0] }
    }

    /// `stack` with each row's height made as it is needed (nothing per row kept but its offset).
    public static func stack(count: Int, gap: Double, height: (Int) -> Double) -> (offsets: [Double], total: Double) {
        var offsets = [Double](repeating: 0, count: count)
        var top = 0.0
        for index in 0..<count {
            if index > 0 { top += gap }
            offsets[index] = top
            top += height(index)
        }
        return (offsets, top)
    }

    /// Rule: the anchor's row keeps its place on screen: scroll to its new top plus the same offset.
    public static func anchorPosition(_ offsets: [Double], _ anchor: ListAnchor) -> ListAnchorPosition {
        ListAnchorPosition(index: anchor.index, scrollOffset: offsets[anchor.index] + anchor.offset)
    }

    /// Rule: the viewport's top is the scroll offset clamped to the list's scroll range, 0 to the total less
    /// the viewport's height (as a browser clamps it); a row is shown when some of it lies in the viewport
    /// (its top above the viewport's bottom, its bottom below the viewport's top); the window is the rows
    /// shown, widened by `overscan` rows on each side within the list. A viewport that shows no row gives an
    /// empty window where it is.
    public static func window(_ heights: [Double], _ offsets: [Double], total: Double, _ scroll: ListScroll) -> ListWindow {
        window(offsets, total: total, scroll) { heights[$0] }
    }

    /// `window` with each row's height made as it is needed.
    public static func window(_ offsets: [Double], total: Double, _ scroll: ListScroll, height: (Int) -> Double) -> ListWindow {
        let count = offsets.count
        let top = min(max(scroll.offset, 0), max(0, total - scroll.viewportHeight))
        let bottom = top + scroll.viewportHeight
        // Bottoms and tops both grow down the list (gaps are not negative): two binary searches.
        let start = firstIndex(count: count) { offsets[$0] + height($0) > top }
        let end = max(start, firstIndex(count: count) { offsets[$0] >= bottom })
        let overscan = scroll.overscan
        return ListWindow(start: start - min(start, overscan), end: end + min(count - end, overscan))
    }

    /// Rule (CSS `scrollIntoView({block: "nearest"})`): the scroll offset that brings a row (its top and height) into
    /// a viewport scrolled to `scroll.offset`: unchanged when the row is already wholly in view; its top at the
    /// viewport's top when the row starts above it or is taller than it; else its bottom at the viewport's bottom;
    /// clamped to the list's scroll range, 0 to the total less the viewport's height.
    public static func scrollIntoView(top: Double, height: Double, total: Double, _ scroll: ListScroll) -> Double {
        let viewport = scroll.viewportHeight
        let current = min(max(scroll.offset, 0), max(0, total - viewport))
        var target = current
        if top < current || height >= viewport {
            target = top
        } else if top + height > current + viewport {
            target = top + height - viewport
        }
        return min(max(target, 0), max(0, total - viewport))
    }

    /// The first index in 0..<count where `isPast` holds (count when none), `isPast` false then true along the list.
    static func firstIndex(count: Int, _ isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if isPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

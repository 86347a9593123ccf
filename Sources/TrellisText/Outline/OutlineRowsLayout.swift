import TrellisCore

/// The outline picker's rows with wrapped labels: every visible row's label laid out at the row's width less its
/// indentation and padding (as a list's paragraph), the rows stacked (`ListStacking`), the window answered.
public enum OutlineRowsLayout {
    /// `label` gives a node's label (nil: none, an empty row). Hands back the rows, or the first label that cannot be
    /// laid out (its node) and why. A step per scalar shaped and laid out (none shaped for a label `cache` kept), per
    /// scalar ICU's line breaker ran over, and per visible row, on `meter`; nil when the meter stopped.
    public static func compute(
        _ input: OutlineRowsLayoutInput, label: (Int) -> String?, cache: ShapingCache? = nil, meter: inout WorkMeter
    ) -> Result<OutlineRowsLayoutOutput, OutlineLabelRefusal>? {
        var every = input.rows
        every.offset = 0
        every.limit = nil
        let all = OutlineRows.compute(every)
        guard meter.advance(all.rows.count) else { return nil }
        let shaper = ParagraphShaper(font: input.font)
        var style = input.style
        style.lineHeight = style.lineHeight.map(ListLength.lineHeight)
        let indent = ListLength.layoutUnit(input.indent)
        let font = cache?.font(input.font.key) ?? ShapingCache.Font(input.font.key)
        let allowance = cache?.allowance() ?? ShapingCache.Allowance(bytes: 0)
        var heights = [Double](repeating: 0, count: all.rows.count)
        // One memory for every label, reset for each: its objects and arrays made once per request.
        var reused: ParagraphMemory?
        for (index, row) in all.rows.enumerated() {
            var text = 0.0
            if let label = label(row.node), !label.isEmpty {
                let key = cache.map { _ in ShapingCache.key(label, font: font, whiteSpace: style.whiteSpace) }
                let kept = key.flatMap { cache?.paragraph($0) }
                guard meter.advance((kept?.sentScalars ?? label.scalarCount) * (kept == nil ? 2 : 1)) else { return nil }
                let shaped: ShapedParagraph
                switch kept.map({ .success($0) }) ?? shaper.shape(label, whiteSpace: style.whiteSpace) {
                case .success(let made):
                    shaped = made
                    if kept == nil, let key { cache?.store(made, key: key, allowance) }
                case .failure(let refusal):
                    return .failure(OutlineLabelRefusal(node: row.node, refusal: refusal))
                }
                let memory = ParagraphMemory.reused(&reused, for: shaped)
                let breaking = shaper.lineBreakWork
                // Rule: a row's label is as wide as the row less its depth's indentation and its padding.
                let width = max(0, input.chrome.textWidth(in: input.width) - Double(row.depth) * indent)
                guard let block = shaper.block(shaped, width: width, style: style, memory: memory) else {
                    return .failure(OutlineLabelRefusal(node: row.node, refusal: .outOfMemory))
                }
                shaper.countLineBreakWork(memory)
                guard meter.advance(shaper.lineBreakWork - breaking) else { return nil }
                text = block.height
            }
            heights[index] = ListStacking.rowHeight(text: text, input.chrome)
        }
        let (offsets, total) = ListStacking.stack(heights, gap: ListLength.layoutUnit(input.gap))
        var scrollOffset: Double?
        if let scroll = input.scroll, let selected = all.selectedRow {
            scrollOffset = ListStacking.scrollIntoView(top: offsets[selected], height: heights[selected], total: total, scroll)
        }
        // The window the request asked for, as OutlineRows windows it.
        let start = min(input.rows.offset, all.rows.count)
        let end = input.rows.limit.map { min(all.rows.count, start + min($0, all.rows.count)) } ?? all.rows.count
        let rows = OutlineRowsOutput(rows: Array(all.rows[start..<end]), totalRows: all.totalRows, selectedRow: all.selectedRow)
        return .success(OutlineRowsLayoutOutput(
            rows: rows, heights: Array(heights[start..<end]), offsets: Array(offsets[start..<end]), totalHeight: total,
            selectedScrollOffset: scrollOffset))
    }
}

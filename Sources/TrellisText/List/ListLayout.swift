import TrellisCore

/// The list feature's entry point: every row's paragraphs laid out at the row's text width for each width
/// (each paragraph shaped once), then the rows stacked (`ListStacking`) at each width.
public enum ListLayout {
    /// Rule: the lines of every paragraph at every width, together, per byte of the input (`WorkMeter.inputBytes`).
    /// A chat at three widths has about 0.05; sixteen widths of CJK text 100 px wide about 1.
    public static let maxLinesPerInputByte = 2
    /// Rule: the input's bytes for each row with a line at each width (a chat's row is about 150 bytes, so 16 widths
    /// take 16 of them).
    public static let bytesPerRowWidth = 2

    /// Hands `each` every paragraph that cannot be laid out (in order) and then, when there was none, the
    /// list at each width in order, as soon as it is made; `each` returns false to stop. A step per scalar
    /// shaped and per scalar laid out at each width, counted before the paragraph is shaped, a step per scalar ICU's
    /// line breaker ran over, counted once the paragraph is laid out, and a step per row stacked at each width, on `meter`.
    /// Paragraphs an earlier request shaped in the same font are taken from `cache` (their shaping steps not counted),
    /// and the ones shaped here offered to it, at most a quarter of it.
    public static func compute(
        _ input: ListLayoutInput, cache: ShapingCache? = nil, meter: inout WorkMeter, each: (Result<ListLayoutOutput, ListRefusal>) -> Bool
    ) {
        guard !input.widths.isEmpty, let text = layOutParagraphs(input, cache: cache, meter: &meter, each: each) else { return }
        let rows = input.rows.count
        let gap = ListLength.layoutUnit(input.gap)
        for (w, width) in input.widths.enumerated() {
            guard meter.advance(rows) else { return }
            // Each row's height made once, for the offsets and the answer (one width's at a time).
            let heights = [Double](unsafeUninitializedCapacity: rows) { buffer, initialized in
                for row in 0..<rows { buffer.initializeElement(at: row, to: text.height(row, w)) }
                initialized = rows
            }
            let height = { (row: Int) in heights[row] }
            let (offsets, total) = ListStacking.stack(count: rows, gap: gap, height: height)
            let anchor = input.anchor.map { ListStacking.anchorPosition(offsets, $0) }
            var window: ListWindow?
            if var scroll = input.scroll {
                // Rule: with an anchor, the rows to render are those shown once scrolled to keep it in place.
                if let anchor { scroll.offset = anchor.scrollOffset }
                window = ListStacking.window(offsets, total: total, scroll, height: height)
            }
            let output = ListLayoutOutput(
                width: width, heights: heights, offsets: offsets, total: total, window: window, anchor: anchor, text: text, widthIndex: w)
            guard each(.success(output)) else { return }
        }
    }

    /// Rule: a row's text is its paragraphs laid out at its text width (the width less its leading and
    /// trailing padding), each paragraph's `line-height` a LayoutUnit (`ListLength.lineHeight`). nil when a
    /// paragraph was refused (each handed to `each`), the lines passed their bound, or the meter stopped.
    static func layOutParagraphs(
        _ input: ListLayoutInput, cache: ShapingCache?, meter: inout WorkMeter, each: (Result<ListLayoutOutput, ListRefusal>) -> Bool
    ) -> ListRowsText? {
        let widths = input.widths.count
        let shaper = ParagraphShaper(font: input.font)
        let styles = input.styles.map { style in
            var held = style
            held.lineHeight = style.lineHeight.map(ListLength.lineHeight)
            return held
        }
        let (product, overflow) = meter.inputBytes.multipliedReportingOverflow(by: maxLinesPerInputByte)
        let maxLines = overflow ? Int.max : product
        let maxRowWidths = meter.inputBytes / bytesPerRowWidth
        var rows = ListRowsText(input, reserving: maxRowWidths)
        var lines = 0
        var refused = false
        var paragraph = 0
        let font = cache?.font(input.font.key) ?? ShapingCache.Font(input.font.key)
        var allowance = cache?.allowance() ?? ShapingCache.Allowance(bytes: 0)
        // One memory for every paragraph, reset for each: its objects and arrays made once per request.
        var reused: ParagraphMemory?
        for (r, row) in input.rows.enumerated() {
            let chrome = input.chromes[Int(row.chrome)]
            while paragraph < Int(row.paragraphEnd) {
                defer { paragraph += 1 }
                let style = styles[Int(input.paragraphStyles[paragraph])]
                // A kept paragraph is found by its text's bytes (no String made); a String only for shaping.
                var key: ShapingCache.Key?
                var kept: ShapedParagraph?
                if let cache {
                    input.paragraphs.withUTF8(paragraph) { text in
                        let made = ShapingCache.key(utf8: text, font: font, whiteSpace: style.whiteSpace)
                        kept = cache.paragraph(made, utf8: text)
                        key = made
                    }
                }
                let result: Result<ShapedParagraph, TextRefusal>
                if let kept {
                    guard meter.advance(kept.sentScalars * widths) else { return nil }
                    result = .success(kept)
                } else {
                    let text = input.paragraphs[paragraph]
                    guard meter.advance(text.scalarCount * (widths + 1)) else { return nil }
                    result = shaper.shape(text, whiteSpace: style.whiteSpace)
                    if case .success(let made) = result, let key, let cache {
                        input.paragraphs.withUTF8(paragraph) { cache.store(made, key: key, utf8: $0, &allowance) }
                    }
                }
                let shaped: ShapedParagraph
                switch result {
                case .success(let made):
                    shaped = made
                case .failure(let refusal):
                    refused = true
                    guard each(.failure(.paragraph(paragraph, refusal))) else { return nil }
                    continue
                }
                // After a refusal only the other refusals matter; a paragraph with nothing to lay out has no line.
                if refused || shaped.count == 0 { continue }
                guard let base = rows.base(r, within: maxRowWidths) else {
                    _ = each(.failure(.tooManyRowWidths(limit: maxRowWidths)))
                    return nil
                }
                let memory = ParagraphMemory.reused(&reused, for: shaped)
                let breaking = shaper.lineBreakWork
                for (w, width) in input.widths.enumerated() {
                    memory.widthsAfter = widths - 1 - w
                    guard let layout = shaper.block(shaped, width: chrome.textWidth(in: width), style: style, memory: memory) else {
                        _ = each(.failure(.paragraph(paragraph, .outOfMemory)))
                        return nil
                    }
                    lines += layout.lineCount
                    guard lines <= maxLines else {
                        _ = each(.failure(.tooManyLines(limit: maxLines)))
                        return nil
                    }
                    // Heights are whole LayoutUnits (line heights are); a row taller than Int32 LayoutUnits saturates, as Blink's.
                    let units = (layout.height * 64).rounded()
                    let sum = Int64(rows.heights[base + w]) + Int64(min(units, Double(Int32.max)))
                    rows.heights[base + w] = Int32(min(sum, Int64(Int32.max)))
                    rows.lines[base + w] = (rows.lines[base + w] &+ UInt32(truncatingIfNeeded: layout.lineCount)) | (layout.truncated ? ListRowsText.truncatedBit : 0)
                }
                // A step per scalar ICU's line breaker ran over (the one-line paragraphs never run it).
                shaper.countLineBreakWork(memory)
                guard meter.advance(shaper.lineBreakWork - breaking) else { return nil }
            }
        }
        return refused ? nil : rows
    }
}

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
    /// and the ones shaped here offered to it, at most a quarter of it. A large list's rows are laid out on several of
    /// `lanes` at once (`spread`). A list with its kept shaping (`ListLayoutInput.shaping`) takes its paragraphs from it;
    /// `keeping`, each output has the paragraphs' shaping (`ListLayoutOutput.shaping`), to keep with the list.
    public static func compute(
        _ input: ListLayoutInput, cache: ShapingCache? = nil, lanes: (any ComputeLanes)? = nil, keeping: Bool = false, meter: inout WorkMeter,
        each: (Result<ListLayoutOutput, ListRefusal>) -> Bool
    ) {
        guard !input.widths.isEmpty,
            let text = layOutParagraphs(input, cache: cache, lanes: lanes, keeping: keeping, meter: &meter, each: each)
        else { return }
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

    /// Rule: a list is spread over lanes only with at least this many bytes of text for each of its parts (about 80
    /// paragraphs of 200 characters: a thread is woken in a few microseconds, a paragraph at a new width takes about two).
    public static let bytesPerLane = 1 << 14
    /// At most this many parts, however large the list: enough that threads finishing early take the parts left.
    static let maxLanes = 16

    /// What the list's paragraphs may come to together: lines, and rows with a line times widths.
    struct Bounds {
        let lines: Int
        let rowWidths: Int
    }

    /// What every part of a list is laid out with: the paragraphs' styles, the shaping cache (nil for a list with its
    /// shaping kept), the font as the cache keys it, the request's allowance in the cache, the bounds (the part's
    /// share), and whether the paragraphs' shaping is kept.
    struct Parts {
        let styles: [ParagraphStyle]
        let cache: ShapingCache?
        let font: ShapingCache.Font
        let allowance: ShapingCache.Allowance
        var bounds: Bounds
        let keeping: Bool
    }

    /// Rule: a row's text is its paragraphs laid out at its text width (the width less its leading and
    /// trailing padding), each paragraph's `line-height` a LayoutUnit (`ListLength.lineHeight`). nil when a
    /// paragraph was refused (each handed to `each`), the lines passed their bound, or the meter stopped.
    /// A large list is first spread over `lanes` (`spread`); where that does not answer, it is laid out on this thread.
    static func layOutParagraphs(
        _ input: ListLayoutInput, cache: ShapingCache?, lanes: (any ComputeLanes)?, keeping: Bool = false, meter: inout WorkMeter,
        each: (Result<ListLayoutOutput, ListRefusal>) -> Bool
    ) -> ListRowsText? {
        let styles = input.styles.map { style in
            var held = style
            held.lineHeight = style.lineHeight.map(ListLength.lineHeight)
            return held
        }
        let (product, overflow) = meter.inputBytes.multipliedReportingOverflow(by: maxLinesPerInputByte)
        let bounds = Bounds(lines: overflow ? Int.max : product, rowWidths: meter.inputBytes / bytesPerRowWidth)
        // A list with its shaping kept looks nothing up in the cache.
        let cache = input.shaping == nil ? cache : nil
        let font = cache?.font(input.font.key) ?? ShapingCache.Font(input.font.key)
        let allowance = cache?.allowance() ?? ShapingCache.Allowance(bytes: 0)
        let parts = Parts(styles: styles, cache: cache, font: font, allowance: allowance, bounds: bounds, keeping: keeping)
        if let lanes, let spread = spread(input, over: lanes, parts, meter: &meter) { return spread }
        return layOutRows(input, 0..<input.rows.count, parts, meter: &meter, each: each)
    }

    /// Rule: the rows are cut into consecutive parts of about as many bytes of text (at most 16, each at least 16 KiB),
    /// each laid out as `layOutRows` lays out the whole list (its own shaper, the request's allowance in the shaping
    /// cache, which the parts draw from together, its share of the bounds, the request's deadline) on whichever lane is
    /// free next, and the parts' rows put together in order (rows before the first byte of text, which have no line,
    /// are in none). The parts' steps are counted on `meter`. nil when the list is not spread (too little text, on
    /// average under 8 bytes a row, or so many rows times widths that its parts and the list put together would pass
    /// the memory one thread's rows take; or no thread is free) or a part did not answer (a refusal, its share of a
    /// bound, the deadline): the list is then laid out on this thread (with what is left of `allowance`), which answers
    /// the refusals in order. A list spread costs at most its work twice over.
    static func spread(_ input: ListLayoutInput, over lanes: any ComputeLanes, _ whole: Parts, meter: inout WorkMeter) -> ListRowsText? {
        let bounds = whole.bounds
        // Each row's text's end, in bytes from the first row's start.
        var ends = [Int](repeating: 0, count: input.rows.count)
        var bytes = 0
        var withParagraphs = 0
        var paragraph = 0
        for (r, row) in input.rows.enumerated() {
            if paragraph < Int(row.paragraphEnd) { withParagraphs += 1 }
            while paragraph < Int(row.paragraphEnd) {
                bytes += input.paragraphs.byteCount(paragraph)
                paragraph += 1
            }
            ends[r] = bytes
        }
        let count = min(maxLanes, bytes / bytesPerLane)
        guard count > 1, input.rows.count * 8 <= bytes, withParagraphs * input.widths.count <= bounds.rowWidths / 2 else { return nil }
        struct Part {
            var text: ListRowsText
            var steps: Int
        }
        let template = meter.restarted(inputBytes: meter.inputBytes)
        var each = whole
        each.bounds = Bounds(lines: bounds.lines / count, rowWidths: bounds.rowWidths / count)
        var parts = [Part?](repeating: nil, count: count)
        let spread = parts.withUnsafeMutableBufferPointer { parts in
            lanes.run(count) { part in
                // Rule: part k is the rows from the first whose text ends past k/count of the bytes.
                let range = firstRow(ends, past: bytes * part / count)..<firstRow(ends, past: bytes * (part + 1) / count)
                var partMeter = template
                guard let laid = layOutRows(input, range, each, meter: &partMeter, each: { _ in false }) else { return }
                parts[part] = Part(text: laid, steps: partMeter.steps)
            }
        }
        guard spread else { return nil }
        var steps = 0
        for part in parts {
            guard let part else { return nil }
            steps += part.steps
        }
        // Put together a part at a time, each let go once taken.
        var text = ListRowsText(input, rows: 0..<input.rows.count, reserving: bounds.rowWidths, keeping: whole.keeping)
        for index in parts.indices {
            if let part = parts[index] { text.adopt(part.text) }
            parts[index] = nil
        }
        guard meter.advance(steps) else { return nil }
        return text
    }

    /// The first row whose text ends past `bytes` (the rows' count when none does).
    private static func firstRow(_ ends: [Int], past bytes: Int) -> Int {
        var low = 0
        var high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= bytes { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The paragraphs of the rows in `range`, laid out (`layOutParagraphs`' rule). nil when a paragraph was refused (each
    /// handed to `each`), a bound was passed, or the meter stopped.
    static func layOutRows(
        _ input: ListLayoutInput, _ range: Range<Int>, _ parts: Parts, meter: inout WorkMeter, each: (Result<ListLayoutOutput, ListRefusal>) -> Bool
    ) -> ListRowsText? {
        let (styles, cache, font, allowance, bounds) = (parts.styles, parts.cache, parts.font, parts.allowance, parts.bounds)
        let widths = input.widths.count
        let shaper = ParagraphShaper(font: input.font)
        var rows = ListRowsText(input, rows: range, reserving: bounds.rowWidths, keeping: parts.keeping)
        // The input's arrays taken once (read through the input in the loop, each was retained and released every time).
        let (rowList, chromes, paragraphStyles, widthList) = (input.rows, input.chromes, input.paragraphStyles, input.widths)
        let keptShaping = input.shaping?.paragraphs
        let shaping = input.shaping
        var lines = 0
        var refused = false
        var paragraph = range.lowerBound > 0 ? Int(input.rows[range.lowerBound - 1].paragraphEnd) : 0
        // One memory for every paragraph, reset for each: its objects and arrays made once per request.
        var reused: ParagraphMemory?
        for r in range {
            let row = rowList[r]
            let chrome = chromes[Int(row.chrome)]
            while paragraph < Int(row.paragraphEnd) {
                defer { paragraph += 1 }
                let style = styles[Int(paragraphStyles[paragraph])]
                // A kept paragraph is found by its text's bytes (no String made); a String only for shaping.
                var key: ShapingCache.Key?
                var kept: ShapedParagraph?
                if let keptShaping {
                    shaping?.prefetch(paragraph + 4)
                    // Rule: a paragraph kept with nothing to lay out has no line.
                    guard let made = keptShaping[paragraph] else { continue }
                    kept = made
                } else if let cache {
                    input.paragraphs.withUTF8(paragraph) { text in
                        let made = ShapingCache.key(utf8: text, font: font, whiteSpace: style.whiteSpace)
                        kept = cache.paragraph(made, utf8: text)
                        key = made
                    }
                }
                let shaped: ShapedParagraph
                if let kept {
                    guard meter.advance(kept.sentScalars * widths) else { return nil }
                    shaped = kept
                } else {
                    let text = input.paragraphs[paragraph]
                    guard meter.advance(text.scalarCount * (widths + 1)) else { return nil }
                    switch shaper.shape(text, whiteSpace: style.whiteSpace) {
                    case .success(let made):
                        shaped = made
                        if let key, let cache {
                            input.paragraphs.withUTF8(paragraph) { cache.store(made, key: key, utf8: $0, allowance) }
                        }
                    case .failure(let refusal):
                        refused = true
                        guard each(.failure(.paragraph(paragraph, refusal))) else { return nil }
                        continue
                    }
                }
                // After a refusal only the other refusals matter; a paragraph with nothing to lay out has no line.
                if refused || shaped.count == 0 { continue }
                rows.keep(paragraph, shaped)
                guard let base = rows.base(r, within: bounds.rowWidths) else {
                    _ = each(.failure(.tooManyRowWidths(limit: bounds.rowWidths)))
                    return nil
                }
                let memory = ParagraphMemory.reused(&reused, for: shaped)
                let breaking = shaper.lineBreakWork
                for (w, width) in widthList.enumerated() {
                    memory.widthsAfter = widths - 1 - w
                    guard let layout = shaper.block(shaped, width: chrome.textWidth(in: width), style: style, memory: memory) else {
                        _ = each(.failure(.paragraph(paragraph, .outOfMemory)))
                        return nil
                    }
                    lines += layout.lineCount
                    guard lines <= bounds.lines else {
                        _ = each(.failure(.tooManyLines(limit: bounds.lines)))
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

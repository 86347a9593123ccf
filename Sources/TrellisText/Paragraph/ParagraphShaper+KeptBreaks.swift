extension ParagraphShaper {
    /// The greedy lines of a paragraph (`lineBreaks`) when its kept opportunities decide every one (`keptBreaksLine`),
    /// appended to `lines`; false when one is not (the lines found so far left in `lines`), or they are not kept for
    /// the style (the first line's indent is the breaker's).
    func keptLineBreaks(_ paragraph: ShapedParagraph, limit: inout Limit, style: ParagraphStyle, into lines: inout [BrokenLine]) -> Bool {
        guard keepsBreaks(paragraph, style: style), limit.indent == 0 else { return false }
        var start = 0
        var next = 0
        while start < paragraph.count {
            limit.startLine(first: lines.isEmpty)
            guard let found = keptBreaksLine(paragraph, from: start, next: &next, limit: &limit) else { return false }
            lines.append(found)
            start = found.end
        }
        return true
    }

    /// Whether the paragraph's kept opportunities are its opportunities in `style` (they are kept for the white-space
    /// processing it was shaped with, and `word-break: normal`).
    func keepsBreaks(_ paragraph: ShapedParagraph, style: ParagraphStyle) -> Bool {
        scansKeptBreaks && !paragraph.keptBreaks.isEmpty && style.wordBreak == .normal && style.whiteSpace == paragraph.whiteSpace
    }

    /// Rule (the greedy fill, each line the last break opportunity whose line fits), where the paragraph keeps its
    /// opportunities (`ShapedParagraph.keptBreaks`): the line from `start` is found by a search over them, with no pass
    /// over its scalars. There each line's width is its positions' width from its start to its visible end rounded up to
    /// 1/64 px (one bidi run, both edges safe: `exactWidth` shapes nothing again and `endFits` passes), that width grows
    /// with the opportunity, no soft hyphen adds a hyphen and no right-to-left item has a leading space: the breaker,
    /// looking back from where the line stops fitting, takes the last opportunity whose width fits, the same one. The
    /// comparisons the breaker's answer rests on are noted on `limit`: that width fits and the next opportunity's does
    /// not. nil where the breaker must decide: a start HarfBuzz marks unsafe, a line starting at a `-` (a `-` before a
    /// digit breaks by the scalar before it, which that line does not see), or no opportunity that fits (the line is then
    /// cut or overflows).
    /// `next`: where the opportunities after the line found last start (a hint: searched for when it is not), set to
    /// those after this line's end.
    func keptBreaksLine(_ paragraph: ShapedParagraph, from start: Int, next: inout Int, limit: inout Limit) -> BrokenLine? {
        guard start == 0 || paragraph.unsafe[start] == 0, paragraph.scalars[start] != 0x2D else { return nil }
        let room = limit.room
        guard room >= 0 else { return nil }
        // The chosen opportunity's index and the next one's (breaks.count when none), nil when none fits.
        let hint = next
        let found: (chosen: Int, next: Int)? = paragraph.keptBreaks.withUnsafeBufferPointer { breaks in
            paragraph.positions.withUnsafeBufferPointer { positions in
                let origin = positions[start]
                // A width rounded up fits the room when the positions' width is at most the room rounded down to 1/64 px.
                let bound = origin + room / 1024 * 1024
                // The first opportunity after the start (the text's end is one).
                var low = hint
                var high = breaks.count
                if !(low < high && Int(breaks[low].end) > start && (low == 0 || Int(breaks[low - 1].end) <= start)) {
                    low = 0
                    while low < high {
                        let middle = (low + high) / 2
                        if Int(breaks[middle].end) <= start { low = middle + 1 } else { high = middle }
                    }
                }
                // An opportunity's visible end on this line (spaces that hang at the line's start leave it empty).
                guard low < breaks.count, positions[max(Int(breaks[low].visible), start)] <= bound else { return nil }
                // The first opportunity past the bound after it; the one before it ends the line.
                low += 1
                high = breaks.count
                while low < high {
                    let middle = (low + high) / 2
                    if positions[Int(breaks[middle].visible)] > bound { high = middle } else { low = middle + 1 }
                }
                return (low - 1, low)
            }
        }
        guard let found else { return nil }
        next = found.next
        let breaks = paragraph.keptBreaks
        let positions = paragraph.positions
        let origin = positions[start]
        let visible = max(Int(breaks[found.chosen].visible), start)
        let width = ShapedParagraph.ceiling(positions[visible] - origin)
        guard limit.fits(width) else { return nil }
        if found.next < breaks.count {
            _ = limit.fits(ShapedParagraph.ceiling(positions[max(Int(breaks[found.next].visible), start)] - origin))
        }
        // Rule: what follows a break and is not drawn there (spaces that hang) stays on the line.
        var end = Int(breaks[found.chosen].end)
        while end < paragraph.count && paragraph.hangs(end) { end += 1 }
        return BrokenLine(start: start, end: end, visible: visible, width: width)
    }
}

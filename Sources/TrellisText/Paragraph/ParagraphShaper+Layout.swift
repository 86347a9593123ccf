extension ParagraphShaper {
    /// Units: 1/65536 px.
    static let unit = 65536.0

    /// A width in 1/65536 px (widths past 1e9 px are 1e9 px: no line is that long).
    static func units(_ width: Double) -> Int64 { Int64((min(max(width, 0), 1e9) * unit).rounded(.down)) }

    /// Lays out a shaped paragraph in a box `width` px wide (> 0, finite), as Chromium does: greedy
    /// fill, line heights, then the clamp and the ellipsis. Shapes nothing but line edges HarfBuzz
    /// marks unsafe. nil when memory ran out.
    public func layout(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle) -> ParagraphLayout? {
        layout(paragraph, width: width, style: style, memory: ParagraphMemory(paragraph))
    }

    /// The same, with what laying the paragraph out finds remembered in `memory` (shared by its widths).
    func layout(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle, memory: ParagraphMemory) -> ParagraphLayout? {
        defer { countLineBreakWork(memory) }
        guard let breaks = lineBreaks(paragraph, width: width, style: style, memory: memory) else { return nil }
        var lines: [ParagraphLine] = []
        let shown = min(breaks.count, style.maxLines ?? breaks.count)
        lines.reserveCapacity(shown)
        var top = 0.0
        var widest = 0.0
        for index in 0..<shown {
            let line = breaks[index]
            let (height, ascent) = lineBox(paragraph, line.start, line.end, style: style)
            let drawn = Double(line.width) / Self.unit
            // Spaces collapsed away after a line's last space begin the next line (as Chromium maps them).
            let start = index == 0 ? 0 : paragraph.utf16End(after: line.start)
            let end = index + 1 < breaks.count ? paragraph.utf16End(after: breaks[index + 1].start) : Int(paragraph.utf16[paragraph.count])
            lines.append(ParagraphLine(start: start, end: end, width: drawn, top: top, height: height, baseline: top + ascent))
            top += height
            widest = max(widest, drawn)
        }
        var layout = ParagraphLayout(
            lines: lines, height: top, width: widest, lineCount: breaks.count, truncated: breaks.count > shown, ellipsis: nil)
        if style.textOverflow == .ellipsis, !breaks.isEmpty {
            ellipsize(&layout, paragraph, breaks, width: width, style: style)
        }
        return layout
    }

    /// The min-content width (every break opportunity taken; with `anywhere`, every grapheme cluster
    /// boundary) and the max-content width (one line), in px; nil when memory ran out.
    public func contentWidths(_ paragraph: ShapedParagraph, style: ParagraphStyle) -> ContentWidths? {
        contentWidths(paragraph, style: style, memory: ParagraphMemory(paragraph))
    }

    func contentWidths(_ paragraph: ShapedParagraph, style: ParagraphStyle, memory: ParagraphMemory) -> ContentWidths? {
        defer { countLineBreakWork(memory) }
        var narrow = style
        if narrow.overflowWrap == .breakWord { narrow.overflowWrap = .normal }
        narrow.maxLines = nil
        guard let lines = lineBreaks(paragraph, width: 0, style: narrow, memory: memory) else { return nil }
        let widest = lines.map(\.width).max() ?? 0
        let oneLine = paragraph.approximateWidth(0, paragraph.visibleEnd(0, paragraph.count))
        return ContentWidths(min: Double(widest) / Self.unit, max: Double(max(oneLine, widest)) / Self.unit)
    }

    /// A line as the breaker found it: scalars [start, end), its visible end and drawn width (1/65536 px).
    struct BrokenLine {
        var start: Int
        var end: Int
        var visible: Int
        var width: Int64
    }

    /// Rule: after as many earlier opportunities
    /// that did not fit once their edges were shaped again, the positions' width decides.
    static let maxRetries = 4

    /// Rule: each line takes the last break opportunity whose line fits (its width
    /// without hanging spaces, each bidi run rounded up to 1/64 px, at most W + 1/64 px); when none
    /// fits, `anywhere` and `break-word` cut the first word at the last grapheme cluster that fits (at
    /// least one), otherwise the line overflows to the first opportunity.
    func lineBreaks(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle, memory: ParagraphMemory) -> [BrokenLine]? {
        let count = paragraph.count
        guard count > 0 else { return [] }
        if !style.whiteSpace.wraps {
            // One line; with `pre` its spaces count.
            let visible = style.whiteSpace == .pre ? count : paragraph.visibleEnd(0, count)
            guard let drawn = exactWidth(paragraph, 0, visible, memory, lineEnd: count) else { return nil }
            return [BrokenLine(start: 0, end: count, visible: visible, width: drawn)]
        }
        // Rule: at most W + 1/64 px (Chromium's allowance), in 1/65536 px.
        var limit = Limit(Self.units(width) + 1024)
        // The breaks depend on the width only through the comparisons below: a width they all answer alike for
        // (as the last one laid out) breaks the same.
        if let known = memory.breaks(for: style, limit: limit.value) { return known }
        guard let lines = lineBreaks(paragraph, limit: &limit, style: style, memory: memory) else { return nil }
        memory.remember(lines, for: style, fitting: limit.fitting, failing: limit.failing)
        return lines
    }

    /// A line's limit, noting the widest width that fitted it and the narrowest that did not.
    struct Limit {
        let value: Int64
        private(set) var fitting: Int64 = .min
        private(set) var failing: Int64 = .max

        init(_ value: Int64) { self.value = value }

        /// Whether `width` fits.
        mutating func fits(_ width: Int64) -> Bool {
            if width <= value {
                fitting = max(fitting, width)
                return true
            }
            failing = min(failing, width)
            return false
        }
    }

    private func lineBreaks(_ paragraph: ShapedParagraph, limit: inout Limit, style: ParagraphStyle, memory: ParagraphMemory) -> [BrokenLine]? {
        let count = paragraph.count
        var lines: [BrokenLine] = []
        var start = 0
        var clusterEnds: [Int] = []
        var scanner = BreakOpportunities(paragraph, wordBreak: style.wordBreak, lineStart: 0, boundaries: memory.boundaries)
        while start < count {
            // Where the line stops fitting: its width (without hanging spaces) passes the limit.
            var overflowAt = start + 1
            while overflowAt <= count
                && (ShapedParagraph.hangs(paragraph.scalars[overflowAt - 1]) || limit.fits(paragraph.approximateWidth(start, overflowAt)))
            {
                overflowAt += 1
            }
            // The positions to look at: all up to there and, past it, those inside the glyph cluster that crosses
            // the limit (its advance is only known whole, and shaping the edge again may fit).
            var scanEnd = count
            if overflowAt <= count {
                scanEnd = overflowAt
                while scanEnd < count && paragraph.unsafe[scanEnd] & 2 != 0 { scanEnd += 1 }
                scanEnd -= 1
            } else {
                overflowAt = count
            }
            scanner.startLine(at: start, reach: scanEnd)
            var line: BrokenLine?
            // The last opportunity that fits once its edges are shaped again (a bounded number of tries), the
            // opportunities looked for from the last position back.
            var tries = 0
            var candidate = scanEnd
            while line == nil && candidate > start {
                defer { candidate -= 1 }
                guard candidate == count || (scanner.isOpportunity(candidate) && !Self.insideRightToLeftCluster(paragraph, candidate))
                else { continue }
                let visible = paragraph.visibleEnd(start, candidate)
                let drawn: Int64
                if tries < Self.maxRetries {
                    guard let exact = exactWidth(paragraph, start, visible, memory, lineEnd: candidate) else { return nil }
                    drawn = exact
                } else {
                    drawn = paragraph.approximateWidth(start, visible)
                }
                tries += 1
                if limit.fits(drawn) {
                    line = BrokenLine(start: start, end: candidate, visible: visible, width: drawn)
                }
            }
            if line == nil {
                if style.overflowWrap != .normal {
                    guard let cut = graphemeCut(paragraph, start, before: overflowAt, limit: &limit, memory: memory, scratch: &clusterEnds)
                    else { return nil }
                    line = cut
                } else {
                    // Overflow: to the first opportunity at or after where the line stopped fitting.
                    var end = overflowAt
                    while end < count && !scanner.isOpportunity(end) { end += 1 }
                    let visible = paragraph.visibleEnd(start, end)
                    guard let drawn = exactWidth(paragraph, start, visible, memory, lineEnd: end) else { return nil }
                    line = BrokenLine(start: start, end: end, visible: visible, width: drawn)
                }
            }
            guard let found = line else { return nil }
            lines.append(found)
            start = found.end
        }
        return lines
    }

    /// Rule: inside a right-to-left glyph cluster (a lam-alef) Chromium does not break;
    /// the line ends before the cluster instead.
    static func insideRightToLeftCluster(_ paragraph: ShapedParagraph, _ i: Int) -> Bool {
        paragraph.unsafe[i] & 2 != 0 && paragraph.levels[i] & 1 == 1
    }

    /// Rule: the longest run of whole grapheme clusters from `start` that fits (at least
    /// one), its end shaped again when HarfBuzz asks. `scratch` holds the cluster ends tried.
    func graphemeCut(
        _ paragraph: ShapedParagraph, _ start: Int, before overflowAt: Int, limit: inout Limit, memory: ParagraphMemory,
        scratch boundaries: inout [Int]
    ) -> BrokenLine? {
        boundaries.removeAll(keepingCapacity: true)
        var i = start + 1
        while i <= min(overflowAt, paragraph.count) {
            if i == paragraph.count || paragraph.graphemeStarts[i] != 0 {
                if boundaries.isEmpty || limit.fits(paragraph.approximateWidth(start, i)) { boundaries.append(i) } else { break }
            }
            i += 1
        }
        var tries = 0
        while let candidate = boundaries.last {
            guard let drawn = tries < Self.maxRetries ? exactWidth(paragraph, start, candidate, memory) : paragraph.approximateWidth(start, candidate)
            else { return nil }
            tries += 1
            if limit.fits(drawn) || boundaries.count == 1 {
                return BrokenLine(start: start, end: candidate, visible: candidate, width: drawn)
            }
            boundaries.removeLast()
        }
        return BrokenLine(start: start, end: paragraph.count, visible: paragraph.count, width: paragraph.approximateWidth(start, paragraph.count))
    }

    /// Rule: the width of scalars[start..<end], each bidi run's part rounded up to 1/64 px; a
    /// part whose edge HarfBuzz marks unsafe has that edge's piece (up to the nearest safe position)
    /// shaped again, together with the line's hanging spaces after `end` up to `lineEnd` (Chromium shapes a
    /// line with them, so a space can still position what it follows: Inter kerns a comma before a space).
    /// nil when memory ran out.
    func exactWidth(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int, _ memory: ParagraphMemory, lineEnd: Int? = nil) -> Int64? {
        guard end > start else { return 0 }
        let first = Int(paragraph.runOf[start])
        let last = Int(paragraph.runOf[end - 1])
        var total: Int64 = 0
        for run in first...last {
            let runStart = Int(paragraph.runStarts[run])
            let runEnd = paragraph.runEnd(run)
            let a = max(start, runStart)
            let b = min(end, runEnd)
            if run != first && run != last {
                total += paragraph.runCeilings[run + 1] - paragraph.runCeilings[run]
                continue
            }
            let tailEnd = run == last ? min(max(lineEnd ?? end, b), runEnd) : b
            guard let advance = segmentAdvance(paragraph, a, b, tailEnd: tailEnd, runStart: runStart, runEnd: runEnd, memory) else {
                return nil
            }
            total += ShapedParagraph.ceiling(advance)
        }
        return total
    }

    /// The advance of scalars[a..<b] inside one bidi run, edges shaped again where unsafe (the end's piece through
    /// `tailEnd`, measured up to b), each edge's piece shaped once per paragraph: the piece from a line start to the
    /// first safe position after it, and the one from the last safe position before a line end, are the same at
    /// every width.
    private func segmentAdvance(
        _ paragraph: ShapedParagraph, _ a: Int, _ b: Int, tailEnd: Int, runStart: Int, runEnd: Int, _ memory: ParagraphMemory
    ) -> Int64? {
        let positions = paragraph.positions
        let startUnsafe = a > runStart && paragraph.unsafe[a] != 0
        let endUnsafe = b < runEnd && paragraph.unsafe[b] != 0
        if !startUnsafe && !endUnsafe { return positions[b] - positions[a] }
        var startCut = a
        if startUnsafe {
            startCut += 1
            while startCut < b && paragraph.unsafe[startCut] != 0 { startCut += 1 }
        }
        var endCut = b
        if endUnsafe {
            endCut -= 1
            while endCut > startCut && paragraph.unsafe[endCut] != 0 { endCut -= 1 }
        }
        if startCut >= endCut {
            let pieceEnd = endUnsafe ? tailEnd : b
            if let known = memory.piece(from: a, to: pieceEnd, measuredTo: b) { return known }
            guard let whole = reshape(paragraph, a, pieceEnd, measuredEnd: b) else { return nil }
            memory.remember(whole, from: a, to: pieceEnd, measuredTo: b)
            return whole
        }
        var total = positions[endCut] - positions[startCut]
        if startCut > a {
            if let head = memory.edge(starting: a) {
                total += head
            } else {
                guard let head = reshape(paragraph, a, startCut) else { return nil }
                memory.remember(head, starting: a)
                total += head
            }
        }
        if endCut < b {
            if let tail = memory.edge(ending: b, through: tailEnd) {
                total += tail
            } else {
                guard let tail = reshape(paragraph, endCut, tailEnd, measuredEnd: b) else { return nil }
                memory.remember(tail, ending: b, through: tailEnd)
                total += tail
            }
        }
        return total
    }

    /// Rule: with `line-height: normal`, the largest rounded ascent plus the largest
    /// rounded descent over the primary face and every face with glyphs on the line (line gaps split
    /// evenly above and below); with a length, that length and the primary face's metrics centred in it.
    /// Returns the height and the baseline's distance from the line's top.
    func lineBox(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int, style: ParagraphStyle) -> (Double, Double) {
        let primary = font.lineMetrics
        if let lineHeight = style.lineHeight {
            // The leading, split in 1/64 px with the smaller half above (as LayoutUnit divides).
            let leading = (lineHeight - primary.ascent - primary.descent) * 64
            let above = (leading / 2).rounded(.towardZero) / 64
            return (lineHeight, primary.ascent + above)
        }
        let boxes = faceBoxes
        var (ascent, descent) = boxes[font.primary]
        for face in paragraph.faces[start..<end] {
            ascent = max(ascent, boxes[Int(face)].ascent)
            descent = max(descent, boxes[Int(face)].descent)
        }
        return (ascent + descent, ascent)
    }

    /// Rule for `ellipsis`: on the last line shown when lines are hidden, U+2026 follows the line if it fits
    /// after it; on that line when it does not, and on a `nowrap` line that overflows, the line keeps
    /// the longest prefix of grapheme clusters that fits with the ellipsis (at least its first).
    func ellipsize(_ layout: inout ParagraphLayout, _ paragraph: ShapedParagraph, _ breaks: [BrokenLine], width: Double, style: ParagraphStyle) {
        guard let ellipsis = ellipsisWidth() else { return }
        let box = Self.units(width)
        let clamped = layout.lineCount > layout.lines.count
        let index = layout.lines.count - 1
        let line = breaks[index]
        if clamped || (!style.whiteSpace.wraps && line.width > box) {
            var visible = line.visible
            var drawn = line.width
            var end = paragraph.utf16End(after: visible)
            if !(clamped && line.width + ellipsis.width <= box) {
                // The longest prefix of grapheme clusters (spaces counted) within the box less the
                // ellipsis, at least the first cluster.
                let available = box - ellipsis.width
                var best = -1
                var bestWidth: Int64 = 0
                var i = line.start + 1
                while i <= line.end {
                    if i == line.end || paragraph.graphemeStarts[i] != 0 {
                        let prefix = paragraph.approximateWidth(line.start, i)
                        if best < 0 || prefix <= available { best = i; bestWidth = prefix } else { break }
                    }
                    i += 1
                }
                visible = max(best, line.start + 1)
                drawn = bestWidth
                // Spaces collapsed away after a visible space are visible with it.
                end = Int(paragraph.utf16[visible])
            }
            let x = Double(drawn) / Self.unit
            layout.ellipsis = ParagraphEllipsis(line: index, end: end, x: x, width: Double(ellipsis.width) / Self.unit, text: ellipsis.text)
            layout.lines[index].width = x + Double(ellipsis.width) / Self.unit
            layout.truncated = true
            layout.width = layout.lines.map(\.width).max() ?? 0
        }
    }
}

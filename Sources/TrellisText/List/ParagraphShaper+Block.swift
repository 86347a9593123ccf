/// What a list keeps of a paragraph laid out at one width: its height, its lines before any clamp, and whether
/// it is truncated.
struct ParagraphBlock {
    var height: Double
    var lineCount: Int
    var truncated: Bool
}

extension ParagraphShaper {
    /// The paragraph's block at `width`, as `layout` lays it out; a paragraph that fits on one line (most of a
    /// chat's, at most widths) is found without breaking it into lines. nil when memory ran out.
    func block(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle, memory: ParagraphMemory) -> ParagraphBlock? {
        if let line = oneLine(paragraph, width: width, style: style, memory: memory) { return line }
        // A line that does not wrap may end in an ellipsis it overflows: `layout` decides it.
        guard style.whiteSpace.wraps else {
            return layout(paragraph, width: width, style: style, memory: memory).map {
                ParagraphBlock(height: $0.height, lineCount: $0.lineCount, truncated: $0.truncated)
            }
        }
        // As `layout` lays the lines out: the shown lines' heights, truncated when a clamp hides some.
        defer { countLineBreakWork(memory) }
        guard let breaks = wrappedLineBreaks(paragraph, width: width, style: style, memory: memory) else { return nil }
        let shown = min(breaks.count, style.maxLines ?? breaks.count)
        let height = linesHeight(paragraph, breaks[0..<shown], style: style)
        return ParagraphBlock(height: height, lineCount: breaks.count, truncated: breaks.count > shown)
    }

    /// The lines' boxes' heights (`lineBox`), added one line after the other. A line's box depends on the faces it
    /// draws only: with a `line-height` length every line's is that length; in one face, every line that draws
    /// something has the same box; in several faces of which none is taller above or below the baseline than the
    /// primary face, every line has the primary face's box. Those are found by `lineBox` once, not for every line.
    func linesHeight(_ paragraph: ShapedParagraph, _ lines: ArraySlice<BrokenLine>, style: ParagraphStyle) -> Double {
        var height = 0.0
        if let lineHeight = style.lineHeight {
            for _ in lines { height += lineHeight }
            return height
        }
        if paragraph.onlyFace >= 0 {
            // A line whose first scalar is not a control character draws something.
            var drawn: Double?
            for line in lines {
                if line.start < line.end && !WhiteSpaceProcessing.isControl(paragraph.scalars[line.start]) {
                    let box = drawn ?? lineBox(paragraph, line.start, line.end, style: style).0
                    drawn = box
                    height += box
                } else {
                    height += lineBox(paragraph, line.start, line.end, style: style).0
                }
            }
            return height
        }
        let boxes = faceBoxes
        let primary = boxes[font.primary]
        let dominated = paragraph.faceRuns.allSatisfy { run in
            run.face < 0 || (boxes[Int(run.face)].ascent <= primary.ascent && boxes[Int(run.face)].descent <= primary.descent)
        }
        var uniform: Double?
        for line in lines {
            if dominated, let uniform {
                height += uniform
                continue
            }
            let box = lineBox(paragraph, line.start, line.end, style: style).0
            uniform = box
            height += box
        }
        return height
    }

    /// Rule (the greedy fill's first line, when it ends at the paragraph's end): a wrapping paragraph is one line
    /// when no prefix of it passes W + 1/64 px by the positions' widths (its trailing hanging spaces aside) and
    /// the whole line, its edges shaped again, fits too; a `nowrap` or `pre` paragraph is one line,
    /// truncated when it overflows W and an ellipsis is drawn. A paragraph with a kept line feed (a forced break ends
    /// a line) or a kept tab (its width depends on where the line has got to) is left to `layout`. nil when it is not
    /// one line (or memory ran out).
    func oneLine(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle, memory: ParagraphMemory) -> ParagraphBlock? {
        let count = paragraph.count
        guard count > 0, paragraph.forcedBreaks.isEmpty, paragraph.tabRuns.isEmpty else { return nil }
        let wraps = style.whiteSpace.wraps
        let visible = style.whiteSpace == .pre ? count : paragraph.visibleEnd(0, count)
        var truncated = false
        if wraps {
            let limit = Self.units(width) + 1024
            // The whole visible line passing the limit is a prefix the scan below stops at: a paragraph of several
            // lines is known at once.
            if visible > 0 && !ShapedParagraph.hangs(paragraph.scalars[visible - 1]) && paragraph.approximateWidth(0, visible) > limit {
                return nil
            }
            if paragraph.isMonotone {
                // Positions never decrease, so neither does a prefix's width as it grows (each later bidi run adds its
                // width rounded up): the longest prefix the scan below looks at passes the limit when any does.
                var i = count
                while i > 0 && ShapedParagraph.hangs(paragraph.scalars[i - 1]) { i -= 1 }
                if i > 0 && paragraph.approximateWidth(0, i) > limit { return nil }
            } else {
                for i in 1...count where !ShapedParagraph.hangs(paragraph.scalars[i - 1]) && paragraph.approximateWidth(0, i) > limit {
                    return nil
                }
            }
            guard let drawn = exactWidth(paragraph, 0, visible, memory, lineEnd: count), drawn <= limit else { return nil }
        } else {
            guard let drawn = exactWidth(paragraph, 0, visible, memory, lineEnd: count) else { return nil }
            // Rule (Blink's `CanFitOnLine`): it overflows when wider than W plus 1/64 px.
            truncated = style.textOverflow == .ellipsis && drawn > Self.units(width) + 1024 && ellipsisWidth() != nil
        }
        return ParagraphBlock(height: lineBox(paragraph, 0, count, style: style).0, lineCount: 1, truncated: truncated)
    }
}

/// `text-wrap-style: balance` and `pretty` as Blink implements them: the greedy lines first, then Blink's score-based
/// line breaker (after Minikin's optimal line breaker) over a few of them, and for `balance` where scoring does not
/// apply, its bisection of the available width. Every step bounded as Blink bounds it: at most 6 lines balanced, the
/// last 4 lines of a paragraph made pretty, the bisection to 1 px.
extension ParagraphShaper {
    /// Blink's `kMaxLinesForBalance` and `kMaxLinesForOptimal`.
    static let maxLinesForBalance = 6
    static let maxLinesForPretty = 4
    /// Our own bound on the break opportunities scored at once (Blink has none): past it the lines stay greedy, so that
    /// the scoring's work (at most the opportunities times those on one line) stays within a few steps per scalar.
    static let maxScoredCandidates = 1024

    /// The lines of a paragraph at `width` as its `text-wrap-style` breaks them.
    func wrappedLineBreaks(_ paragraph: ShapedParagraph, width: Double, style: ParagraphStyle, memory: ParagraphMemory) -> [BrokenLine]? {
        guard style.whiteSpace.wraps, style.textWrap == .balance || style.textWrap == .pretty else {
            return lineBreaks(paragraph, width: width, style: style, memory: memory)
        }
        // Rule (Blink's `ScoreLineBreaker::OptimalBreakPoints`): where Blink's scorer runs, it lays a paragraph's first
        // lines (6 of the first paragraph to balance, 4 of each to make pretty) out with one line breaker, whose break
        // iterator starts at the paragraph's start, and keeps them: they are the greedy lines it scores, and the lines
        // drawn when it changes none. Each later line has a line breaker of its own, as the bisection's lines do.
        var scoring = style
        scoring.scoredLines = Self.scoredLines(paragraph, style)
        guard let greedy = lineBreaks(paragraph, width: width, style: scoring, memory: memory) else { return nil }
        guard greedy.count > 1 else { return greedy }
        return style.textWrap == .balance
            ? balanced(paragraph, greedy, byScorer: scoring.scoredLines != .none, width: width, style: style, memory: memory)
            : pretty(paragraph, greedy, width: width, style: style, memory: memory)
    }

    /// The lines Blink's scorer lays out with one line breaker (none where it does not run: a block with kept tabs, a
    /// clamp, and for balance `break-spaces` and the paragraphs after the first).
    static func scoredLines(_ paragraph: ShapedParagraph, _ style: ParagraphStyle) -> ParagraphStyle.ScoredLines {
        guard paragraph.tabRuns.isEmpty, style.maxLines == nil else { return .none }
        let firstParagraph = style.whiteSpace != .breakSpaces
        switch style.textWrap {
        case .balance:
            return firstParagraph ? ParagraphStyle.ScoredLines(lines: maxLinesForBalance, everyParagraph: false, firstParagraph: true) : .none
        case .pretty:
            return ParagraphStyle.ScoredLines(lines: maxLinesForPretty, everyParagraph: true, firstParagraph: firstParagraph)
        case .wrap, .stable:
            return .none
        }
    }

    // MARK: - The steps

    /// Rule (Blink's `text-wrap: balance`): only the block's first paragraph (up to its first forced break) is balanced.
    /// 1. In a block without kept tabs (Blink scores no line of a block with a tab) and not `break-spaces` (Blink's line
    ///    breaker turns its scorer off there), when it ends within 6 greedy lines, or a clamp of at most 6 lines ends before it does, none of the lines
    ///    overflowing: the score-based breaker over those lines (the clamp's alone: the lines after it stay greedy), the
    ///    last one scored like the others; its breaks are taken when they make as many lines.
    /// 2. Otherwise, in a block without forced breaks, the bisection: the narrowest available width (to 1 px) at which
    ///    the greedy lines are as many (with a clamp of at most 6 lines: the shown lines end as far), every line then
    ///    broken at that width.
    /// `byScorer`: the greedy lines are the scorer's (`scoredLines`), not those the bisection starts from.
    func balanced(
        _ paragraph: ShapedParagraph, _ greedy: [BrokenLine], byScorer: Bool, width: Double, style: ParagraphStyle,
        memory: ParagraphMemory
    ) -> [BrokenLine]? {
        // The lines scored: the first paragraph's, or with a clamp the clamp's lines of it (when fewer).
        var scored = Self.firstSegmentLines(paragraph, greedy)
        if let clamp = style.maxLines, clamp < scored { scored = clamp }
        if paragraph.tabRuns.isEmpty && style.whiteSpace != .breakSpaces && scored > 1 && scored <= Self.maxLinesForBalance
            && !overflows(greedy, 0..<scored, width: width, style: style) && !cuts(paragraph, greedy, 0..<scored, style: style, memory: memory)
        {
            guard let lines = scoredBreaks(paragraph, greedy, 0..<scored, itemStart: 0, balanced: true, width: width, style: style, memory: memory)
            else { return nil }
            if let lines { return lines + greedy[scored...] }
        }
        // The bisection starts from the lines with a line breaker each.
        var lineByLine = greedy
        if byScorer {
            guard let lines = lineBreaks(paragraph, width: width, style: style, memory: memory) else { return nil }
            lineByLine = lines
        }
        guard let bisected = bisectedWidth(paragraph, lineByLine, width: width, style: style, memory: memory) else { return nil }
        guard let balancedWidth = bisected else { return greedy }
        return lineBreaks(paragraph, width: balancedWidth, style: Self.greedyStyle(style), memory: memory)
    }

    /// Rule (Blink's `text-wrap: pretty`): in each paragraph (up to a forced break) of 2 or more lines, none of which
    /// overflows, when its last line is shorter than a third of the box and has no break opportunity inside, or the two
    /// lines before its last both end in a hyphen (of its last 4), the score-based breaker over its last 4 lines (or
    /// all, when fewer); its breaks are taken when they make as many lines.
    /// With a clamp, the clamp's last line ends the paragraph it is in (Blink scores up to it). A block with kept tabs
    /// stays greedy (Blink scores no line of it), as does the first paragraph of a `break-spaces` block (Blink's line
    /// breaker turns its scorer off there; measured in Chromium 156, the paragraphs after a forced break are scored).
    func pretty(
        _ paragraph: ShapedParagraph, _ greedy: [BrokenLine], width: Double, style: ParagraphStyle, memory: ParagraphMemory
    ) -> [BrokenLine]? {
        guard paragraph.tabRuns.isEmpty else { return greedy }
        var lines = greedy
        // Lines the windows scored so far added (the spaces that end the text can make a line of their own).
        var added = 0
        var first = 0
        while first < greedy.count {
            var end = first + 1
            // A clamp's last line ends the paragraph scored with it.
            while end < greedy.count && !Self.endsSegment(paragraph, greedy[end - 1]) && end != style.maxLines { end += 1 }
            defer { first = end }
            // `break-spaces` turns Blink's scorer off for the block's first paragraph (measured in Chromium 156: the
            // paragraphs after a forced break are scored).
            if style.whiteSpace == .breakSpaces && first == 0 { continue }
            let window = max(first, end - Self.maxLinesForPretty)..<end
            guard end - first > 1, !overflows(greedy, first..<end, width: width, style: style),
                shortLastLine(paragraph, greedy, end - 1, width: width, style: style, memory: memory)
                    || hyphenatedBeforeLast(paragraph, greedy, window, style: style)
            else { continue }
            guard let scored = scoredBreaks(paragraph, greedy, window, itemStart: greedy[first].start, balanced: false, width: width, style: style, memory: memory)
            else { return nil }
            if let better = scored {
                lines.replaceSubrange((window.lowerBound + added)..<(window.upperBound + added), with: better)
                added += better.count - window.count
            }
        }
        return lines
    }

    /// Rule (Blink's `ShouldOptimize`): the last line is narrower than a third of the box (in LayoutUnits) and has no
    /// break opportunity inside (`CanBreakInside`). Its width is Blink's `LineInfo::Width`: with spaces kept (`pre-wrap`), the spaces
    /// hanging at its end count (collapsible ones were removed).
    private func shortLastLine(
        _ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ index: Int, width: Double, style: ParagraphStyle, memory: ParagraphMemory
    ) -> Bool {
        let line = lines[index]
        let box = Self.units(width) / 1024
        var drawn = line.width / 1024 + (index == 0 ? style.textIndent.units(width: width) / 1024 : 0)
        if style.whiteSpace == .preWrap { drawn += paragraph.approximateWidth(line.visible, line.end) / 1024 }
        guard drawn < box / 3 else { return false }
        let scanner = BreakOpportunities(
            paragraph, wordBreak: style.wordBreak, breakSpaces: style.whiteSpace == .breakSpaces, lineStart: line.start,
            boundaries: memory.boundaries)
        scanner.softHyphens = style.hyphens != Hyphens.none
        // Blink moves a text's break opportunity after it onto the empty item of a kept carriage return that follows
        // (`AddEmptyItem`), which is then inside the line, and with `break-spaces` a space before the line feed is
        // followed by one: an opportunity right before the carriage returns and line feed a line ends with counts.
        var controls = line.end
        while controls > line.start
            && (paragraph.scalars[controls - 1] == WhiteSpaceProcessing.lineFeed
                || paragraph.scalars[controls - 1] == WhiteSpaceProcessing.carriageReturn)
        {
            controls -= 1
        }
        let scanEnd = controls < line.end
            && (paragraph.scalars[controls] == WhiteSpaceProcessing.carriageReturn || style.whiteSpace == .breakSpaces)
            ? controls + 1 : line.visible
        scanner.startLine(at: line.start, reach: scanEnd)
        var i = line.start + 1
        while i < scanEnd {
            if scanner.isOpportunity(i) { return false }
            i += 1
        }
        return true
    }

    /// Rule (Blink's `ShouldOptimize`, its second case): of 3 or more lines, the two before the last both end in a hyphen.
    private func hyphenatedBeforeLast(_ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ window: Range<Int>, style: ParagraphStyle) -> Bool {
        guard window.count >= 3 else { return false }
        return (window.upperBound - 3...window.upperBound - 2).allSatisfy { k in
            hyphenAdvance(paragraph, lines[k].end, segmentEnd: paragraph.segmentEnd(from: lines[k].start), style: style) > 0
        }
    }

    /// Whether a line of `range` ends inside a word (`overflow-wrap` cut it where no break opportunity is): measured,
    /// Blink then balances nothing (neither scores nor bisects).
    private func cuts(_ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ range: Range<Int>, style: ParagraphStyle, memory: ParagraphMemory) -> Bool {
        guard style.overflowWrap != .normal else { return false }
        let scanner = BreakOpportunities(
            paragraph, wordBreak: style.wordBreak, breakSpaces: style.whiteSpace == .breakSpaces, lineStart: 0, boundaries: memory.boundaries)
        scanner.softHyphens = style.hyphens != Hyphens.none
        for k in range where lines[k].end < paragraph.count && !Self.endsSegment(paragraph, lines[k]) {
            scanner.startLine(at: lines[k].start, reach: lines[k].end)
            if !scanner.isOpportunity(lines[k].end) { return true }
        }
        return false
    }

    /// Whether a greedy line of `range` overflowed (no break opportunity let it fit): Blink then scores no breaks.
    private func overflows(_ lines: [BrokenLine], _ range: Range<Int>, width: Double, style: ParagraphStyle) -> Bool {
        let limit = Self.units(width) + 1024
        let indent = style.textIndent.units(width: width)
        return range.contains { lines[$0].width + ($0 == 0 ? indent : 0) > limit }
    }

    /// The lines of the first forced-break segment.
    private static func firstSegmentLines(_ paragraph: ShapedParagraph, _ lines: [BrokenLine]) -> Int {
        var count = 1
        while count < lines.count && !endsSegment(paragraph, lines[count - 1]) { count += 1 }
        return count
    }

    private static func endsSegment(_ paragraph: ShapedParagraph, _ line: BrokenLine) -> Bool {
        line.end >= paragraph.count || line.end == paragraph.segmentEnd(from: line.start)
    }

    private static func greedyStyle(_ style: ParagraphStyle) -> ParagraphStyle {
        var greedy = style
        greedy.textWrap = .wrap
        return greedy
    }

    // MARK: - The score-based breaker

    /// Blink's `IsBreakableSpace`: a space or a tab.
    static func isBreakableSpace(_ scalar: UInt32) -> Bool { scalar == WhiteSpaceProcessing.space || scalar == WhiteSpaceProcessing.tab }

    /// A break opportunity as Blink's scorer sees it: where the next line starts, the position there (spaces included)
    /// and the position the line ends at when it breaks there (without its hanging spaces, its end shaped again where
    /// HarfBuzz says), in px from the window's start, and the penalty for breaking there.
    private struct Candidate {
        var offset: Int
        var positionNoBreak: Float
        var positionIfBreak: Float
        var penalty: Float
        /// A break after a soft hyphen: the line shows a hyphen.
        var hyphenated = false
    }

    /// Rule (Blink's `ScoreLineBreaker::Optimize`) over the lines `window`: the break opportunities between the window's
    /// start and end (at least 3 of them); the last one before the end penalised 10,000 (against typographic orphans);
    /// each line scored by the square of its room left (a line too long: 1e12; with `pretty` the last line scores
    /// nothing but 4 times its start's penalty), plus a line penalty of 4 × the box × the font size (none when
    /// justified); the best sum by dynamic programming, a later start winning ties. `.some(nil)` when Blink keeps the
    /// greedy lines (too few opportunities, or another count of lines); nil when memory ran out.
    private func scoredBreaks(
        _ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ window: Range<Int>, itemStart: Int, balanced: Bool, width: Double,
        style: ParagraphStyle, memory: ParagraphMemory
    ) -> [BrokenLine]?? {
        let start = lines[window.lowerBound].start
        // Blink's parameters (Minikin's): in LayoutUnits and float, as Blink computes them.
        let box = Self.units(width) / 1024
        let widthTimesFontSize = Float(Double(box) / 64) * Float(font.size)
        let justified = style.textAlign == .justify
        // Justified text hyphenates more readily and has no line penalty.
        let hyphenPenalty: Float = justified ? widthTimesFontSize / 2 : widthTimesFontSize * 2
        let linePenalty: Float = justified ? 0 : hyphenPenalty * 2
        guard let candidates = candidates(
            paragraph, lines, window, itemStart: itemStart, hyphenPenalty: hyphenPenalty, width: width, style: style, memory: memory)
        else { return nil }
        guard var candidates, candidates.count >= 3 + 2 else { return .some(nil) }
        // Orphans: the last opportunity before the end, and when it is hyphenated each one before it up to and including
        // the first that is not.
        for k in stride(from: candidates.count - 2, through: 0, by: -1) {
            candidates[k].penalty += 10_000
            if !candidates[k].hyphenated { break }
        }
        let indent = window.lowerBound == 0 ? style.textIndent.units(width: width) / 1024 : 0
        // The room to fit a line in: its box (the first line's less the indent, at least 0) and Blink's 1/64 px.
        func availableToFit(_ line: Int) -> Float {
            Float(Double(max(box - (line == 0 ? indent : 0), 0) + 1) / 64)
        }

        struct Score {
            var score: Float
            var previous: Int
            var line: Int
        }
        let infinity = Float.greatestFiniteMagnitude
        let overfull: Float = 1e12
        var scores: [Score] = [Score(score: 0, previous: 0, line: 0)]
        scores.reserveCapacity(candidates.count)
        var active = 0
        for endIndex in 1..<candidates.count {
            let endCandidate = candidates[endIndex]
            let isLast = endIndex == candidates.count - 1
            var best = infinity
            var bestPrevious = 0
            var lastLine = scores[active].line
            var available = availableToFit(lastLine)
            var startEdge = endCandidate.positionIfBreak - available
            var bestHope: Float = 0
            for startIndex in active..<endIndex {
                let startScore = scores[startIndex]
                if startScore.line != lastLine {
                    lastLine = startScore.line
                    let newAvailable = availableToFit(lastLine)
                    if newAvailable != available {
                        available = newAvailable
                        startEdge = endCandidate.positionIfBreak - available
                        bestHope = 0
                    }
                }
                if startScore.score + bestHope >= best { continue }
                let startCandidate = candidates[startIndex]
                let delta = startCandidate.positionNoBreak - startEdge
                var widthScore: Float = 0
                var additionalPenalty: Float = 0
                if (isLast || !justified) && delta < 0 {
                    widthScore = overfull
                } else if isLast && !balanced {
                    additionalPenalty = 4 * startCandidate.penalty
                } else if delta < 0 {
                    widthScore = overfull
                } else {
                    widthScore = delta * delta
                }
                if delta < 0 { active = startIndex + 1 } else { bestHope = widthScore }
                let score = startScore.score + widthScore + additionalPenalty
                if score <= best {
                    best = score
                    bestPrevious = startIndex
                }
            }
            scores.append(Score(score: best + endCandidate.penalty + linePenalty, previous: bestPrevious, line: scores[bestPrevious].line + 1))
        }

        // The breaks, back from the end; Blink keeps the greedy lines when they are not as many.
        var offsets: [Int] = []
        var i = candidates.count - 1
        while i > 0 {
            offsets.append(candidates[i].offset)
            i = scores[i].previous
            if offsets.count > window.count { return .some(nil) }
        }
        guard offsets.count == window.count else { return .some(nil) }
        var result: [BrokenLine] = []
        var lineStart = start
        let windowEnd = lines[window.upperBound - 1].end
        // Blink keeps the greedy lines up to the first break that differs (`OptimalBreakPoints` reuses them).
        var kept = true
        for (k, chosen) in offsets.reversed().enumerated() {
            var offset = chosen
            kept = kept && offset == lines[window.lowerBound + k].end
            // With `break-spaces`, a line broken at a break point ends before the spaces its opportunity follows
            // (they take room, so they start the next line).
            if style.whiteSpace == .breakSpaces && !kept && (offset < windowEnd || offset == paragraph.count) {
                while offset > lineStart + 1 && Self.isBreakableSpace(paragraph.scalars[offset - 1]) { offset -= 1 }
            }
            guard var line = exactLine(paragraph, lineStart, offset, style: style, memory: memory) else { return nil }
            // A line broken at a soft hyphen shows the hyphen, and its width counts.
            line.width += hyphenAdvance(paragraph, offset, segmentEnd: paragraph.segmentEnd(from: lineStart), style: style)
            result.append(line)
            lineStart = offset
        }
        // The spaces that end the text, when its last line ended before them, make a line of their own.
        if lineStart < windowEnd {
            guard let line = exactLine(paragraph, lineStart, windowEnd, style: style, memory: memory) else { return nil }
            result.append(line)
        }
        return .some(result)
    }

    /// Rule (Blink's `LineBreakCandidateContext`): a sentinel at `start`, then each break opportunity up to `end` (the
    /// window's end last), at Blink's positions (`gridPositions`), a line's end shaped again from the last position
    /// safe to break; a break after a soft hyphen (Blink's `AppendCandidates`) ends its line further by the hyphen's
    /// advance and costs `hyphenPenalty`. `.some(nil)` past `maxScoredCandidates`; nil when memory ran out.
    private func candidates(
        _ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ window: Range<Int>, itemStart: Int, hyphenPenalty: Float,
        width: Double, style: ParagraphStyle, memory: ParagraphMemory
    ) -> [Candidate]?? {
        let start = lines[window.lowerBound].start
        let end = lines[window.upperBound - 1].end
        let position = gridPositions(paragraph, lines, window, itemStart: itemStart)
        var candidates = [Candidate(offset: start, positionNoBreak: 0, positionIfBreak: 0, penalty: 0)]
        let scanner = BreakOpportunities(
            paragraph, wordBreak: style.wordBreak, breakSpaces: style.whiteSpace == .breakSpaces, lineStart: start,
            boundaries: memory.boundaries)
        scanner.softHyphens = style.hyphens != Hyphens.none
        scanner.startLine(at: start, reach: end)
        let segmentEnd = paragraph.segmentEnd(from: start)
        // The kept line feed and carriage returns the window ends with: Blink's control items, which end the last
        // candidate (no candidate before or between them).
        var controlsFrom = end
        while controlsFrom > start
            && (paragraph.scalars[controlsFrom - 1] == WhiteSpaceProcessing.lineFeed
                || paragraph.scalars[controlsFrom - 1] == WhiteSpaceProcessing.carriageReturn)
        {
            controlsFrom -= 1
        }
        var previous = start
        var i = start + 1
        while i <= end {
            defer { i += 1 }
            guard i == end || (i < controlsFrom && scanner.isOpportunity(i) && !Self.insideRightToLeftCluster(paragraph, i))
            else { continue }
            guard candidates.count < Self.maxScoredCandidates else { return .some(nil) }
            var visible = paragraph.visibleEnd(previous, i)
            // Blink leaves the spaces and tabs before an opportunity out of a line's end whatever the white space
            // (with `break-spaces` they do not hang, yet the scored end is before them).
            if style.whiteSpace == .breakSpaces {
                while visible > previous + 1 && Self.isBreakableSpace(paragraph.scalars[visible - 1]) { visible -= 1 }
            }
            var ifBreak = position[visible - start]
            // An end HarfBuzz marks unsafe to break is shaped again from the last safe position before it.
            let run = visible > 0 ? paragraph.run(of: visible - 1) : 0
            if visible > previous && visible < paragraph.runEnd(run) && paragraph.unsafe[visible] & 1 != 0 {
                var safe = visible - 1
                while safe > previous && paragraph.unsafe[safe] & 1 != 0 { safe -= 1 }
                let piece: Int64
                if let known = memory.piece(from: safe, to: visible, measuredTo: visible) {
                    piece = known
                } else {
                    guard let shaped = reshape(paragraph, safe, visible) else { return nil }
                    memory.remember(shaped, from: safe, to: visible, measuredTo: visible)
                    piece = shaped
                }
                ifBreak = position[safe - start] + Float(Double(piece) / Self.unit)
            }
            // Rule (Blink's `AppendCandidates` at a text item's end with no break opportunity): right before a kept
            // line feed there is none (a line feed ends the space run before it; before a carriage return, after
            // spaces, there is one). So when the greedy last line of a `pre-wrap` paragraph ending in a line feed
            // holds its kept spaces within the box (one item result, which cannot break after), its scored end is
            // where its text item ends: after those spaces, unshaped. Spaces that overflow hang in an item result
            // of their own, after which the text can break, and the end is the visible one.
            if i == end && style.whiteSpace == .preWrap && controlsFrom < end
                && paragraph.scalars[controlsFrom] == WhiteSpaceProcessing.lineFeed
                && lines[window.upperBound - 1].width + paragraph.approximateWidth(lines[window.upperBound - 1].visible, controlsFrom)
                    <= Self.units(width) + 1024
            {
                ifBreak = position[controlsFrom - start]
            }
            let hyphen = hyphenAdvance(paragraph, i, segmentEnd: segmentEnd, style: style)
            // Blink's `HyphenAdvance` is negative in a right-to-left item, whose positions still grow in logical order:
            // there the hyphen brings the line's end back.
            let rightToLeft = paragraph.levels[i - 1] & 1 == 1
            if hyphen > 0 { ifBreak += Float(Double(rightToLeft ? -hyphen : hyphen) / Self.unit) }
            candidates.append(Candidate(
                offset: i, positionNoBreak: position[i - start], positionIfBreak: ifBreak, penalty: hyphen > 0 ? hyphenPenalty : 0,
                hyphenated: hyphen > 0))
            previous = i
        }
        return .some(candidates)
    }

    /// Rule (Blink's item positions, `ShapeResult::ComputePositionData` as `LineBreaker::AppendCandidates` reads it): the
    /// position of each scalar of the window from its start, on the LayoutUnit grid. Within an item (a bidi run, or the
    /// text after a forced break) an offset's position is its advance from the item's start, summed exactly and
    /// rounded up to 1/64 px; right to left, the item's width rounded up less the advance from the offset to the item's
    /// end rounded up (Blink rounds each character's left edge). Each item starts where the one before it ended
    /// (Blink's `SetBasePosition`), the window's first item at the window's start. The scores' float sums then add
    /// multiples of 1/64 px, and which of two sets of breaks scores lower follows from these rounded positions.
    /// A kept carriage return is an item of its own (a control, drawn empty), and Blink's empty item result for it
    /// ends where it starts: the text item after it is then based from the carriage return's offset, one before its
    /// own start, where Blink's cached position is the item's whole width rounded up. So that item, and all after it,
    /// are placed that width further back.
    private func gridPositions(_ paragraph: ShapedParagraph, _ lines: [BrokenLine], _ window: Range<Int>, itemStart: Int) -> [Float] {
        let start = lines[window.lowerBound].start
        let end = lines[window.upperBound - 1].end
        let positions = paragraph.positions
        let scalars = paragraph.scalars
        let carriageReturn = WhiteSpaceProcessing.carriageReturn
        typealias Item = (start: Int, end: Int, rightToLeft: Bool, control: Bool)
        /// An exact advance (1/65536 px) rounded up to LayoutUnits (1/64 px), whatever its sign.
        func ceiling(_ value: Int64) -> Int64 { value >= 0 ? (value + 1023) / 1024 : -((-value) / 1024) }
        func startsItem(_ i: Int) -> Bool {
            i > 0 && (Int(paragraph.runStarts[paragraph.run(of: i)]) == i || scalars[i - 1] == WhiteSpaceProcessing.lineFeed
                || scalars[i - 1] == carriageReturn || scalars[i] == carriageReturn)
        }
        // The item starting at `first` that `i` is in: its end (the bidi run's, the forced-break segment's, or a
        // carriage return's), its direction, and whether it is a carriage return.
        func item(at i: Int, from first: Int) -> Item {
            if scalars[first] == carriageReturn { return (first, first + 1, false, true) }
            let limit = min(paragraph.runEnd(paragraph.run(of: i)), paragraph.segmentEnd(from: first))
            var end = i
            while end < limit && scalars[end] != carriageReturn { end += 1 }
            return (first, end, paragraph.levels[i] & 1 == 1, false)
        }
        // An offset's position within its item, in LayoutUnits from the item's start.
        func within(_ current: Item, _ i: Int) -> Int64 {
            if current.control { return 0 }
            let advance = positions[i] - positions[current.start]
            guard current.rightToLeft else { return ceiling(advance) }
            let width = positions[current.end] - positions[current.start]
            return ceiling(width) - ceiling(width - advance)
        }
        // The item the window starts in, from its start.
        var first = max(itemStart, Int(paragraph.runStarts[paragraph.run(of: start)]))
        if first > start { first = start }
        for k in stride(from: start - 1, through: first, by: -1) where scalars[k] == carriageReturn {
            first = k + 1
            break
        }
        var current = item(at: start, from: first)
        var base = -within(current, start)
        var result = [Float](repeating: 0, count: end - start + 1)
        for i in start...end {
            if i > start && i < paragraph.count && startsItem(i) {
                base += within(current, i)
                let afterControl = current.control
                current = item(at: i, from: i)
                if afterControl && !current.control && scalars[i] != WhiteSpaceProcessing.lineFeed {
                    base -= ceiling(positions[current.end] - positions[current.start])
                }
            }
            result[i - start] = Float(Double(base + within(current, i)) / 64)
        }
        return result
    }

    // MARK: - The bisection

    /// Rule (Blink's `ParagraphLineBreaker::AttemptParagraphBalancing`): the balanced available width in px, `.some(nil)`
    /// when Blink does not balance (forced breaks, a line that overflows, one line, more than 6 lines, or an estimate of
    /// more than 12 lines), nil when memory ran out.
    /// - With a clamp of 2–6 lines: the clamp's lines; without, all lines (at most 6, the estimate from the primary
    ///   face's space advance at most 12).
    /// - Bisect between the box (upper) and 0.8 × the lines' average width (lower), in LayoutUnits, until they are
    ///   within 1 px: the middle is the new upper when the greedy lines at it are at most as many (and reach as far),
    ///   else the new lower. The upper is the width.
    private func bisectedWidth(
        _ paragraph: ShapedParagraph, _ greedy: [BrokenLine], width: Double, style: ParagraphStyle, memory: ParagraphMemory
    ) -> Double?? {
        guard paragraph.forcedBreaks.isEmpty, width > 0 else { return .some(nil) }
        let box = Self.units(width) / 1024
        // The indent resolves against the box, whatever width the lines are broken at.
        let indent = style.textIndent.units(width: width)
        let greedyStyle = Self.greedyStyle(style)
        let maxLines = Self.maxLinesForBalance
        var counted: Int
        var stop: Int?
        if let clamp = style.maxLines, clamp <= maxLines {
            if clamp == 1 { return .some(nil) }
            guard let outcome = fits(paragraph, greedy, box: box, lines: clamp, stop: nil, indent: indent),
                !cuts(paragraph, greedy, 0..<min(clamp, greedy.count), style: style, memory: memory)
            else { return .some(nil) }
            counted = min(clamp, greedy.count)
            stop = outcome.reachedEnd ? nil : greedy[counted].start
        } else {
            // Blink's estimate: the text's UTF-16 length over the characters of the primary face's space advance a line holds.
            let space = spaceAdvance()
            if space > 0 {
                let perLine = Int(Float(Double(box) / 64) / space)
                guard perLine > 0 else { return .some(nil) }
                var length = 0
                for scalar in paragraph.scalars { length += scalar >= 0x10000 ? 2 : 1 }
                if (length + perLine - 1) / perLine > maxLines * 2 { return .some(nil) }
            }
            guard greedy.count <= maxLines, fits(paragraph, greedy, box: box, lines: maxLines, stop: nil, indent: indent)?.reachedStop == true,
                !cuts(paragraph, greedy, 0..<greedy.count, style: style, memory: memory)
            else { return .some(nil) }
            counted = greedy.count
            stop = nil
        }
        guard counted > 1 else { return .some(nil) }
        // Blink's line width here is its end position: with spaces kept (`pre-wrap`), the spaces that hang at a line's
        // end count in it, where a collapsed space does not.
        var sum: Int64 = 0
        for k in 0..<counted {
            var width = greedy[k].width
            if style.whiteSpace == .preWrap && greedy[k].visible < greedy[k].end {
                var tabs = LineTabs(paragraph, from: greedy[k].start)
                guard let whole = lineWidth(
                    paragraph, greedy[k].start, greedy[k].end, lineEnd: greedy[k].end, tabs: &tabs, style: greedyStyle, memory: memory,
                    exact: true)
                else { return nil }
                width = whole
            }
            sum += (width + (k == 0 ? indent : 0)) / 1024
        }
        let average = sum / Int64(counted)
        var lower = Int64((Float(Double(average) / 64) * 0.8 * 64).rounded(.toNearestOrAwayFromZero))
        var upper = box
        let epsilon: Int64 = 64
        // Rule (Blink's line breaker): a tab advances to a stop measured from the block's start edge, and the bisection
        // lays lines out in a box of the middle's width whose left edge is the block's: a right-to-left line's start
        // edge, its right, then lies the box less the middle from the block's. (Layout itself uses the box's edges.)
        let shiftsTabs = paragraph.isRightToLeft(at: 0) && !paragraph.tabRuns.isEmpty
        // Every line broken: a width narrower than the widest word makes a line overflow (or cut it), so the step fails
        // without breaking the text (the same answer, one scan for all steps; where tabs move at each step, the widest
        // word without a tab).
        var widest: Int64 = 0
        if stop == nil && shiftsTabs {
            guard let word = widestWord(paragraph, indent: indent, style: greedyStyle, memory: memory, withoutTabs: true) else { return nil }
            widest = word
        } else if stop == nil {
            if let known = memory.widestWord, known.indent == indent, known.style.breaksAlike(greedyStyle) {
                widest = known.width
            } else {
                guard let word = widestWord(paragraph, indent: indent, style: greedyStyle, memory: memory) else { return nil }
                memory.widestWord = ParagraphMemory.WidestWord(style: greedyStyle, indent: indent, width: word)
                widest = word
            }
        }
        while lower + epsilon < upper {
            let middle = (upper + lower) / 2
            if widest > middle * 1024 + 1024 {
                lower = middle
                continue
            }
            var stepStyle = greedyStyle
            if shiftsTabs { stepStyle.tabStopShift = Float(box - middle) / 64 }
            guard let lines = lineBreaks(paragraph, width: Double(middle) / 64, style: stepStyle, memory: memory) else { return nil }
            if fits(paragraph, lines, box: middle, lines: counted, stop: stop, indent: indent)?.reachedStop == true,
                !cuts(paragraph, lines, 0..<min(counted, lines.count), style: style, memory: memory)
            {
                upper = middle
            } else {
                lower = middle
            }
        }
        return .some(Double(upper) / 64)
    }

    /// The widest line a single word makes (from a break opportunity to the next, its hanging spaces aside, measured as
    /// the greedy fill measures a line), the first one with the indent (`withoutTabs`: of the words that hold no tab);
    /// nil when memory ran out.
    private func widestWord(
        _ paragraph: ShapedParagraph, indent: Int64, style: ParagraphStyle, memory: ParagraphMemory, withoutTabs: Bool = false
    ) -> Int64? {
        let scanner = BreakOpportunities(
            paragraph, wordBreak: style.wordBreak, breakSpaces: style.whiteSpace == .breakSpaces, lineStart: 0, boundaries: memory.boundaries)
        scanner.softHyphens = style.hyphens != Hyphens.none
        let count = paragraph.count
        var widest: Int64 = 0
        var start = 0
        while start < count {
            scanner.startLine(at: start, reach: count)
            var end = start + 1
            while end < count && !(scanner.isOpportunity(end) && !Self.insideRightToLeftCluster(paragraph, end)) { end += 1 }
            if withoutTabs && paragraph.scalars[start..<end].contains(WhiteSpaceProcessing.tab) {
                start = end
                continue
            }
            guard let line = exactLine(paragraph, start, end, style: style, memory: memory) else { return nil }
            widest = max(widest, line.width + (start == 0 ? indent : 0))
            start = end
        }
        return widest
    }

    /// Blink's `BreakLines` over greedy `lines` laid out in a box `box` LayoutUnits wide: nil when a line overflows
    /// within the first `count` lines (Blink cannot bisect it); else whether the paragraph ended, and whether it ended or
    /// reached `stop` within `count` lines.
    private func fits(
        _ paragraph: ShapedParagraph, _ lines: [BrokenLine], box: Int64, lines count: Int, stop: Int?, indent: Int64
    ) -> (reachedEnd: Bool, reachedStop: Bool)? {
        let limit = box * 1024 + 1024
        for k in 0..<min(count, lines.count) {
            if lines[k].width + (k == 0 ? indent : 0) > limit { return nil }
            let next = lines[k].end
            if next >= paragraph.count { return (true, true) }
            if let stop, next >= stop { return (false, true) }
        }
        return (lines.count <= count, lines.count <= count)
    }
}

import CHarfBuzzShim

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
        guard let breaks = wrappedLineBreaks(paragraph, width: width, style: style, memory: memory) else { return nil }
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
            let forced = line.end > line.start && paragraph.scalars[line.end - 1] == WhiteSpaceProcessing.lineFeed
            lines.append(
                ParagraphLine(start: start, end: end, width: drawn, top: top, height: height, baseline: top + ascent, forcedBreak: forced))
            if hyphenAdvance(paragraph, line.end, segmentEnd: paragraph.segmentEnd(from: line.start), style: style) > 0 {
                lines[lines.count - 1].hyphen = hyphen()?.text
            }
            top += height
            widest = max(widest, drawn)
        }
        var layout = ParagraphLayout(
            lines: lines, height: top, width: widest, lineCount: breaks.count, truncated: breaks.count > shown, ellipsis: nil)
        if style.textOverflow == .ellipsis, !breaks.isEmpty {
            ellipsize(&layout, paragraph, breaks, width: width, style: style, memory: memory)
        }
        if style.textAlign != .start || style.textAlignLast != .auto || style.textIndent != .none || !paragraph.bidiParagraphs.isEmpty
            || (style.whiteSpace == .preWrap && paragraph.isRightToLeft && paragraph.hasCarriageReturn)
        {
            align(&layout, paragraph, breaks, width: width, style: style, memory: memory)
        }
        return layout
    }

    /// Rule (Blink's expansion opportunities, `text-justify: auto`): one after each space (U+0020, U+00A0, U+3000) and
    /// before and after each of Blink's CJK ideographs and symbols (`ExpansionCharacters`) and each character with
    /// Emoji_Presentation (one between two of them), none at the line's start or end; per grapheme cluster.
    static func expansionOpportunities(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int) -> Int {
        var count = 0
        var afterExpansion = true
        // Each grapheme cluster by its first scalar (an emoji with its modifier or joined sequence is one).
        for i in start..<end where i == start || paragraph.graphemeStarts[i] != 0 {
            let scalar = paragraph.scalars[i]
            if scalar == 0x20 || scalar == 0xA0 || scalar == 0x3000 {
                count += 1
                afterExpansion = true
            } else if ExpansionCharacters.contains(scalar) || paragraph.characterBits[i] & UInt8(TFONT_EMOJI_PRESENTATION) != 0 {
                if !afterExpansion { count += 1 }
                count += 1
                afterExpansion = true
            } else {
                afterExpansion = false
            }
        }
        if afterExpansion && count > 0 { count -= 1 }
        return count
    }

    /// Rule (Blink's line offset for `text-align`): each line's free room is its box (the first line's less its
    /// indent) less its drawn width, in LayoutUnits; `start`/`end` are `left`/`right` by the direction of the line's
    /// bidi paragraph (with `unicode-bidi: plaintext` each paragraph has its own: a Hebrew paragraph after an English
    /// one starts at the right); the last line and each line before a forced break take `text-align-last` unless it is
    /// `auto`. `left` puts the line at the left edge (in a right-to-left paragraph, an overflowing line spills to the
    /// left); `right` at the right edge (in a left-to-right paragraph an overflowing line stays at the left); `center`
    /// half the room from the left, the half cut to 1/64 px (an overflowing line stays at its start edge). The first
    /// line's indent is at its paragraph's start edge. `x` is from the text's start edge (its first strong
    /// character's direction, as `dir="auto"` has it).
    func align(
        _ layout: inout ParagraphLayout, _ paragraph: ShapedParagraph, _ breaks: [BrokenLine], width: Double, style: ParagraphStyle,
        memory: ParagraphMemory
    ) {
        let textLeftToRight = !paragraph.isRightToLeft
        let box = Self.units(width) / 1024
        let indent = style.textIndent.units(width: width) / 1024
        for index in layout.lines.indices {
            let line = layout.lines[index]
            let leftToRight = !paragraph.isRightToLeft(at: breaks[index].start)
            let lineIndent = index == 0 ? indent : 0
            let available = box - lineIndent
            let visible = Int64((line.width * 64).rounded(.up))
            var drawn = visible
            if style.whiteSpace == .preWrap, layout.ellipsis?.line != index, let kept = keptSpacesWidth(paragraph, breaks[index], style: style, memory: memory) {
                drawn = max(drawn, min(kept, available))
            }
            var spaces = TrailingSpaces.atStart
            // (A line's bidi levels can be even in a right-to-left paragraph only after a carriage return.)
            if !leftToRight && style.whiteSpace == .preWrap && layout.ellipsis?.line != index && paragraph.hasCarriageReturn {
                spaces = trailingSpaces(paragraph, breaks[index], visible: visible, style: style, memory: memory)
            }
            let room = available - drawn
            let last = index == layout.lineCount - 1 || line.forcedBreak
            var align = style.textAlign
            if last {
                switch style.textAlignLast {
                case .auto: if align == .justify { align = .start }
                case .start: align = .start
                case .end: align = .end
                case .left: align = .left
                case .right: align = .right
                case .center: align = .center
                case .justify: align = .justify
                }
            }
            if align == .justify {
                // Rule (Blink's justification): the room is shared by the line's expansion opportunities; a line with
                // none, with no room, or with an ellipsis is placed at its start.
                let opportunities = Self.expansionOpportunities(paragraph, breaks[index].start, breaks[index].visible)
                if opportunities > 0 && room > 0 && layout.ellipsis?.line != index {
                    layout.lines[index].expansion = Double(Float(room) / 64 / Float(opportunities))
                    layout.lines[index].width = Double(available) / 64
                    layout.lines[index].x =
                        Double(Self.fromStart(left: 0, drawn: available, visible: available, box: box, indent: lineIndent, leftToRight, textLeftToRight)) / 64
                    continue
                }
                align = .start
            }
            if align == .start { align = leftToRight ? .left : .right } else if align == .end { align = leftToRight ? .right : .left }
            // The line's left edge from its box's left edge, in 1/64 px.
            let left: Int64
            switch align {
            case .left: left = leftToRight ? 0 : min(room, 0)
            case .right: left = leftToRight ? max(room, 0) : room
            case .center: left = leftToRight || room > 0 ? max(room / 2, 0) : room
            case .start, .end, .justify: left = 0
            }
            switch spaces {
            case .atStart:
                layout.lines[index].x =
                    Double(Self.fromStart(left: left, drawn: drawn, visible: visible, box: box, indent: lineIndent, leftToRight, textLeftToRight)) / 64
            case .atEnd(let width):
                // The text starts where the line's items do: its left edge less the spaces' part outside it.
                let textLeft = left - (width - (drawn - visible))
                layout.lines[index].x = Double(textLeftToRight ? textLeft : box - textLeft - visible) / 64
            case .inside(let width):
                let textLeft = left - (width - (drawn - visible))
                layout.lines[index].width = Double(visible + width) / 64
                layout.lines[index].x = Double(textLeftToRight ? textLeft : box - textLeft - visible - width) / 64
            }
        }
    }

    /// Where a right-to-left line's trailing spaces and tabs are drawn: at the line's start edge (its left), at its
    /// right, or between its glyphs, with their width (1/64 px).
    enum TrailingSpaces {
        case atStart
        case atEnd(Int64)
        case inside(Int64)
    }

    /// Rule (Blink's line box for a right-to-left line, `AdjustLineOffsetForHanging` and the positions it computes from
    /// minus the hanging width): the line's items are placed from its start less the width of its trailing spaces, as if
    /// those were at its left. They are placed in the bidi order of their levels (ICU's over the text, each part after a
    /// carriage return or line feed with its own direction, as Blink gives them), the trailing spaces at the line's level
    /// (UAX #9 L1): so where the character before them has level 0 (left to right after a carriage return), they are at
    /// the line's right and its text that far left of where it would be; where the last run of levels 1 and more before
    /// them starts inside the line, they are between its glyphs, and its drawn width spans them. Only after a carriage
    /// return in the same paragraph can a level be 0 in a right-to-left paragraph. `.atStart` too when the line has no
    /// such spaces or memory ran out.
    func trailingSpaces(_ paragraph: ShapedParagraph, _ line: BrokenLine, visible: Int64, style: ParagraphStyle, memory: ParagraphMemory) -> TrailingSpaces {
        guard line.visible > line.start, let whole = widthWithTrailingSpaces(paragraph, line, style: style, memory: memory), whole > visible
        else { return .atStart }
        let levels = paragraph.levels
        if levels[line.visible - 1] == 0 { return .atEnd(whole - visible) }
        // (A carriage return takes the line's level too, as a paragraph separator: UAX #9 L1.)
        var k = line.visible - 1
        while k > line.start && (levels[k - 1] != 0 || paragraph.scalars[k - 1] == WhiteSpaceProcessing.carriageReturn) { k -= 1 }
        return k == line.start ? .atStart : .inside(whole - visible)
    }

    /// Rule (CSS Text's conditional hanging, as Blink places lines): in `pre-wrap` the spaces and tabs a line keeps at its
    /// end hang unconditionally where the line wraps, but before a forced break or at the text's end only past the box's
    /// edge: up to it they count in the line's width when it is placed. That width (1/64 px, rounded up), the line's text
    /// and those spaces; nil when the line has none such (or memory ran out: the line is then placed without them).
    func keptSpacesWidth(_ paragraph: ShapedParagraph, _ line: BrokenLine, style: ParagraphStyle, memory: ParagraphMemory) -> Int64? {
        guard line.end == paragraph.count || paragraph.scalars[line.end - 1] == WhiteSpaceProcessing.lineFeed else { return nil }
        return widthWithTrailingSpaces(paragraph, line, style: style, memory: memory)
    }

    /// A line's width (1/64 px, rounded up) with the spaces and tabs it keeps at its end (not its line feed or carriage
    /// returns after them); nil when it has none (or memory ran out).
    func widthWithTrailingSpaces(_ paragraph: ShapedParagraph, _ line: BrokenLine, style: ParagraphStyle, memory: ParagraphMemory) -> Int64? {
        var spacesEnd = line.end
        while spacesEnd > line.visible
            && (paragraph.scalars[spacesEnd - 1] == WhiteSpaceProcessing.lineFeed || paragraph.scalars[spacesEnd - 1] == WhiteSpaceProcessing.carriageReturn)
        {
            spacesEnd -= 1
        }
        guard spacesEnd > line.visible else { return nil }
        var tabs = LineTabs(paragraph, from: line.start)
        guard let width = lineWidth(paragraph, line.start, spacesEnd, lineEnd: line.end, tabs: &tabs, style: style, memory: memory, exact: true)
        else { return nil }
        return (width + 1023) / 1024
    }

    /// The offset of a line's drawn text from the text's start edge, in 1/64 px: the line `left` from the left edge of the
    /// room its paragraph's direction leaves it (the box less the indent at its start edge), `drawn` wide as it is placed,
    /// its text `visible` wide (the spaces that count in `drawn` past it are at the line's end: at its left when it is
    /// right to left).
    static func fromStart(
        left: Int64, drawn: Int64, visible: Int64, box: Int64, indent: Int64, _ leftToRight: Bool, _ textLeftToRight: Bool
    ) -> Int64 {
        let textLeft = leftToRight ? indent + left : left + drawn - visible
        return textLeftToRight ? textLeft : box - textLeft - visible
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
        // The max-content width: each forced-break segment on one line.
        var oneLine: Int64 = 0
        var start = 0
        while start < paragraph.count {
            let end = paragraph.segmentEnd(from: start)
            var tabs = LineTabs(paragraph, from: start)
            guard let width = lineWidth(paragraph, start, paragraph.visibleEnd(start, end), tabs: &tabs, style: style, memory: memory, exact: false)
            else { return nil }
            oneLine = max(oneLine, width)
            start = end
        }
        return ContentWidths(min: Double(widest) / Self.unit, max: Double(max(oneLine, widest)) / Self.unit)
    }

    /// A line as the breaker found it: scalars [start, end), its visible end and drawn width (1/65536 px).
    struct BrokenLine {
        var start: Int
        var end: Int
        var visible: Int
        var width: Int64
    }

    /// The line [start, end) with its visible end and its width with its edges shaped again (its hanging spaces shaped
    /// with it); nil when memory ran out.
    func exactLine(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int, style: ParagraphStyle, memory: ParagraphMemory) -> BrokenLine? {
        let visible = paragraph.visibleEnd(start, end)
        var tabs = LineTabs(paragraph, from: start)
        guard let width = lineWidth(paragraph, start, visible, lineEnd: end, tabs: &tabs, style: style, memory: memory, exact: true)
        else { return nil }
        return BrokenLine(start: start, end: end, visible: visible, width: width)
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
            // One line per forced-break segment; with `pre` its spaces count.
            var lines: [BrokenLine] = []
            var start = 0
            while start < count {
                let end = paragraph.segmentEnd(from: start)
                guard let line = exactLine(paragraph, start, end, style: style, memory: memory) else { return nil }
                lines.append(line)
                start = end
            }
            return lines
        }
        // Rule: at most W + 1/64 px (Chromium's allowance), in 1/65536 px; the first line has its indent less.
        var limit = Limit(Self.units(width) + 1024)
        limit.indent = style.textIndent.units(width: width)
        if limit.indent != 0 { return lineBreaks(paragraph, limit: &limit, style: style, memory: memory) }
        // The breaks depend on the width only through the comparisons below: a width they all answer alike for
        // (as the last one laid out) breaks the same.
        if let known = memory.breaks(for: style, limit: limit.value) { return known }
        // The breaks they replace are forgotten, and their array filled again: by searches over the paragraph's kept
        // opportunities alone when they decide every line, else by the breaker.
        var lines = memory.takeBreaks()
        if !keptLineBreaks(paragraph, limit: &limit, style: style, into: &lines) {
            lines.removeAll(keepingCapacity: true)
            guard let broken = lineBreaks(paragraph, limit: &limit, style: style, memory: memory, into: consume lines) else { return nil }
            lines = broken
        }
        memory.remember(lines, for: style, fitting: limit.fitting, failing: limit.failing)
        return lines
    }

    /// A line's limit, noting the widest width that fitted it and the narrowest that did not.
    struct Limit {
        let value: Int64
        private(set) var fitting: Int64 = .min
        private(set) var failing: Int64 = .max

        /// The same since the line being fitted started.
        private(set) var lineFitting: Int64 = .min
        private(set) var lineFailing: Int64 = .max

        /// The first line's indent (1/65536 px) and whether the line being fitted is the first.
        var indent: Int64 = 0
        private(set) var firstLine = true

        mutating func startLine(first: Bool) {
            firstLine = first
            lineFitting = .min
            lineFailing = .max
        }

        /// Notes what a line found before was compared with.
        mutating func note(fitting width: Int64, failing narrowest: Int64) {
            fitting = max(fitting, width)
            failing = min(failing, narrowest)
        }

        init(_ value: Int64) { self.value = value }

        /// The widest line width that fits (on the first line, the indent taken off).
        var room: Int64 { firstLine ? value - indent : value }

        /// Whether `width` fits (on the first line, after the indent).
        mutating func fits(_ line: Int64) -> Bool {
            let width = firstLine ? line + indent : line
            if width <= value {
                fitting = max(fitting, width)
                lineFitting = max(lineFitting, width)
                return true
            }
            failing = min(failing, width)
            lineFailing = min(lineFailing, width)
            return false
        }
    }

    /// `into`: an empty array to append the lines to (its room reused).
    private func lineBreaks(
        _ paragraph: ShapedParagraph, limit: inout Limit, style: ParagraphStyle, memory: ParagraphMemory, into empty: consuming [BrokenLine] = []
    ) -> [BrokenLine]? {
        let count = paragraph.count
        var lines = consume empty
        // About as many lines as the text's width fills (one allocation where growing would make three or four), at
        // most one a scalar.
        let filled = (paragraph.positions[count] - paragraph.positions[0]) / max(limit.value, 1 << 16)
        lines.reserveCapacity(Int(min(Int64(count), max(0, filled) + 2)))
        var start = 0
        // Nothing this breaking calls breaks lines again, so the memory's one scanner serves it.
        let scanner = memory.scanner(paragraph, wordBreak: style.wordBreak, breakSpaces: style.whiteSpace == .breakSpaces, lineStart: 0)
        scanner.softHyphens = style.hyphens != Hyphens.none
        let remembering = memory.remembersLines(for: style)
        // The line's paragraph (after the last forced break) and its index there; whether a line of it was cut inside
        // a word (Blink's scorer then stops, the lines after having line breakers of their own).
        var paragraphStart = 0
        var index = 0
        var cutInside = false
        let scansKept = keepsBreaks(paragraph, style: style)
        var keptNext = 0
        while start < count {
            defer {
                index += 1
                if start > 0 && paragraph.scalars[start - 1] == WhiteSpaceProcessing.lineFeed {
                    paragraphStart = start
                    index = 0
                    cutInside = false
                }
            }
            limit.startLine(first: lines.isEmpty)
            // A line from the same start whose comparisons with the limit all answer alike (as at another width) is
            // the same line; a first line with an indent is not remembered (its limit is not the others').
            let remembers = remembering && (!limit.firstLine || limit.indent == 0)
            if remembers, let known = memory.line(from: start, limit: limit.value) {
                limit.note(fitting: known.fitting, failing: known.failing)
                lines.append(known.line)
                start = known.line.end
                continue
            }
            // Where the paragraph keeps its opportunities, a line they decide is found by a search over them.
            if scansKept, let found = keptBreaksLine(paragraph, from: start, next: &keptNext, limit: &limit) {
                if remembers { memory.remember(found, from: start, fitting: limit.lineFitting, failing: limit.lineFailing) }
                lines.append(found)
                start = found.end
                continue
            }
            // Rule: a forced break ends the line.
            let segmentEnd = paragraph.segmentEnd(from: start)
            var tabs = LineTabs(paragraph, from: start)
            guard var overflowAt = overflow(paragraph, from: start, segmentEnd: segmentEnd, limit: &limit, tabs: &tabs, style: style, memory: memory)
            else { return nil }
            // The positions to look at: all up to there and, past it, those inside the glyph cluster that crosses
            // the limit (its advance is only known whole, and shaping the edge again may fit).
            var scanEnd = segmentEnd
            let wholeFits = overflowAt > segmentEnd
            if overflowAt <= segmentEnd {
                scanEnd = overflowAt
                while scanEnd < segmentEnd && paragraph.unsafe[scanEnd] & 2 != 0 { scanEnd += 1 }
                scanEnd -= 1
            } else {
                overflowAt = segmentEnd
            }
            scanner.iteratorStart = !cutInside && style.scoredLines.contains(line: index, paragraphStart: paragraphStart) ? paragraphStart : nil
            scanner.startLine(at: start, reach: scanEnd)
            var line: BrokenLine?
            // The last opportunity that fits once its edges are shaped again (a bounded number of tries), the
            // opportunities looked for from the last position back.
            var tries = 0
            var candidate = scanEnd
            // Rule (Blink's soft hyphen, `LineBreaker::BreakText`): when the last break that fits without a hyphen is at
            // a soft hyphen whose hyphen does not fit, the line is broken again in its width less the hyphen's advance:
            // the last break before it that fits there ends the line (with its own hyphen, which then fits), every break
            // between them that fits only the whole width passed over. When none fits there either, the line ends at the
            // first break it has, or, when that is the soft hyphen's, overflows by its hyphen.
            var hyphenOverflow: BrokenLine?
            var narrowed: Int64 = 0
            var firstBreak: BrokenLine?
            // Rule (Blink's `ShapingLineBreaker::ShapeLine`): a break before where the line stops fitting that does
            // not fit once its edge is shaped again, nor does any before it, still ends the line (overflowing) when
            // none fits: the last such break ("better for kernings"), not the first one after.
            var overflowBefore: Int?
            // A break after a space that starts a right-to-left item and does not fit by its own width (the rule in
            // `leadingSpaceOverflows`): when no break before it fits, the line still ends there.
            var spaceOverflow: BrokenLine?
            while line == nil && candidate > start {
                defer { candidate -= 1 }
                guard candidate == segmentEnd || (scanner.isOpportunity(candidate) && !Self.insideRightToLeftCluster(paragraph, candidate))
                else { continue }
                let visible = paragraph.visibleEnd(start, candidate)
                guard let width = lineWidth(
                    paragraph, start, visible, lineEnd: candidate, tabs: &tabs, style: style, memory: memory, exact: tries < Self.maxRetries)
                else { return nil }
                let hyphen = hyphenAdvance(paragraph, candidate, segmentEnd: segmentEnd, style: style)
                let drawn = width + hyphen
                tries += 1
                if hyphenOverflow != nil {
                    // Broken again: the width less the hyphen's advance, compared as the whole width with it added.
                    if limit.fits(width + narrowed) {
                        line = BrokenLine(start: start, end: candidate, visible: visible, width: drawn)
                    } else {
                        firstBreak = BrokenLine(start: start, end: candidate, visible: visible, width: drawn)
                    }
                } else if limit.fits(drawn), let reshaped = endFits(paragraph, start: start, end: visible, lineEnd: candidate, limit: &limit, memory: memory),
                    reshaped
                {
                    if Self.leadingSpaceOverflows(paragraph, start: start, visible: visible, end: candidate, width: width, limit: &limit) {
                        if spaceOverflow == nil { spaceOverflow = BrokenLine(start: start, end: candidate, visible: visible, width: drawn) }
                    } else {
                        line = BrokenLine(start: start, end: candidate, visible: visible, width: drawn)
                    }
                } else if hyphen > 0 && limit.fits(width) {
                    hyphenOverflow = BrokenLine(start: start, end: candidate, visible: visible, width: drawn)
                    narrowed = hyphen
                } else if overflowBefore == nil && !wholeFits && candidate < overflowAt {
                    overflowBefore = candidate
                }
            }
            // With `break-word` or `anywhere` a line broken again that has no break fitting is cut instead (Blink's
            // `kNoResultIfOverflow`).
            if line == nil, let hyphenOverflow, style.overflowWrap == .normal {
                if let firstBreak {
                    line = firstBreak
                } else {
                    guard let word = wordOnItemGrid(
                        paragraph, start: start, after: hyphenOverflow.end, overflowAt: overflowAt, segmentEnd: segmentEnd, limit: &limit,
                        scanner: scanner, style: style, memory: memory)
                    else { return nil }
                    line = word ?? hyphenOverflow
                }
            }
            if line == nil, hyphenOverflow == nil, let spaceOverflow { line = spaceOverflow }
            if line == nil {
                if style.overflowWrap != .normal {
                    guard let cut = graphemeCut(
                        paragraph, start, before: overflowAt, segmentEnd: segmentEnd, limit: &limit, tabs: &tabs, style: style, memory: memory)
                    else { return nil }
                    line = cut
                    cutInside = true
                } else {
                    // Overflow: to the first opportunity at or after where the line stopped fitting, or the last
                    // before it that did not fit.
                    var end = overflowAt
                    if let overflowBefore {
                        end = overflowBefore
                    } else {
                        while end < segmentEnd && !scanner.isOpportunity(end) { end += 1 }
                    }
                    guard var overflowing = exactLine(paragraph, start, end, style: style, memory: memory) else { return nil }
                    overflowing.width += hyphenAdvance(paragraph, end, segmentEnd: segmentEnd, style: style)
                    line = overflowing
                    // Rule (Blink's `LineBreaker::HandleOverflow`, a line let overflow: `disable_score_line_break_`): the
                    // scorer stops here as after a cut, the lines after having line breakers of their own.
                    cutInside = true
                }
            }
            guard var found = line else { return nil }
            // Rule: what follows a break and is not drawn there (spaces that hang, carriage returns, the forced break)
            // stays on the line.
            while found.end < segmentEnd && paragraph.hangs(found.end) { found.end += 1 }
            if remembers { memory.remember(found, from: start, fitting: limit.lineFitting, failing: limit.lineFailing) }
            lines.append(found)
            start = found.end
        }
        return lines
    }

    /// Where a line from `start` stops fitting: the first position whose line (without hanging spaces) passes the
    /// limit by its positions' width, or segmentEnd + 1 when none does. nil when memory ran out.
    func overflow(
        _ paragraph: ShapedParagraph, from start: Int, segmentEnd: Int, limit: inout Limit, tabs: inout LineTabs, style: ParagraphStyle,
        memory: ParagraphMemory
    ) -> Int? {
        var i = start + 1
        guard paragraph.tabRuns.isEmpty else {
            while i <= segmentEnd {
                if !paragraph.hangs(i - 1) {
                    guard let width = lineWidth(paragraph, start, i, tabs: &tabs, style: style, memory: memory, exact: false) else { return nil }
                    if !limit.fits(width) { return i }
                }
                i += 1
            }
            return i
        }
        // Without tabs, `approximateWidth` as the line grows a scalar at a time: the part of the first bidi run
        // rounded up, the whole runs between, and the part of the last.
        let first = paragraph.run(of: start)
        let firstEnd = min(paragraph.runEnd(first), segmentEnd)
        return paragraph.positions.withUnsafeBufferPointer { positions in
            let origin = positions[start]
            // In the first run the width at i is ceiling(positions[i] - origin), which fits while positions[i] - origin
            // is at most the line's room rounded down to 1/64 px (nothing fits a negative room); the widest width that
            // fitted is noted once, as `fits` notes each.
            let room = limit.room
            let bound = room >= 0 ? origin + room / 1024 * 1024 : Int64.min
            var widest = Int64.min
            let found: Int? = paragraph.scalars.withUnsafeBufferPointer { scalars in
                if paragraph.isMonotone {
                    // Positions never decrease: the first position past the bound is searched for, then the first
                    // there or after whose scalar before it does not hang; the widest that fitted is the last
                    // before it whose scalar before it does not hang.
                    var low = i
                    var high = firstEnd + 1
                    while low < high {
                        let middle = (low + high) / 2
                        if positions[middle] > bound { high = middle } else { low = middle + 1 }
                    }
                    var fitted = low - 1
                    while fitted > start && ShapedParagraph.mayHang(scalars[fitted - 1]) && paragraph.hangs(fitted - 1) { fitted -= 1 }
                    if fitted > start { widest = positions[fitted] }
                    i = low
                    while i <= firstEnd {
                        if !ShapedParagraph.mayHang(scalars[i - 1]) || !paragraph.hangs(i - 1) { return i }
                        i += 1
                    }
                    return nil
                }
                while i <= firstEnd {
                    if !ShapedParagraph.mayHang(scalars[i - 1]) || !paragraph.hangs(i - 1) {
                        let position = positions[i]
                        if position > bound { return i }
                        widest = max(widest, position)
                    }
                    i += 1
                }
                return nil
            }
            if widest > Int64.min { _ = limit.fits(ShapedParagraph.ceiling(widest - origin)) }
            if let found {
                _ = limit.fits(ShapedParagraph.ceiling(positions[found] - origin))
                return found
            }
            let head = ShapedParagraph.ceiling(positions[paragraph.runEnd(first)] - origin)
            if paragraph.isMonotone {
                // Positions never decrease, so neither does the line's width as it grows (each later run adds its
                // whole width rounded up): the first position past the room is searched for, then the first there or
                // after whose scalar before it does not hang; the widest that fitted is the last before it whose
                // scalar before it does not hang.
                func width(_ end: Int) -> Int64 {
                    let last = paragraph.run(of: end - 1)
                    return head + paragraph.runCeilings[last] - paragraph.runCeilings[first + 1]
                        + ShapedParagraph.ceiling(positions[end] - positions[Int(paragraph.runStarts[last])])
                }
                // The first end past the room is searched for in two steps: the run it is in (the first whose widest
                // end in the segment is past the room; a run before the segment's last is widest at its own end, the
                // runs' rounded widths summed), then within that run (one run's width: its positions' width rounded up).
                var low = i
                if i <= segmentEnd {
                    let runCeilings = paragraph.runCeilings
                    let fittedRuns = head - runCeilings[first + 1]
                    var run = first + 1
                    var lastRun = paragraph.run(of: segmentEnd - 1)
                    while run < lastRun {
                        let middle = (run + lastRun) / 2
                        if fittedRuns + runCeilings[middle + 1] > room { lastRun = middle } else { run = middle + 1 }
                    }
                    let runStart = Int(paragraph.runStarts[run])
                    let before = fittedRuns + runCeilings[run]
                    low = max(i, runStart + 1)
                    var high = min(paragraph.runEnd(run), segmentEnd) + 1
                    while low < high {
                        let middle = (low + high) / 2
                        if before + ShapedParagraph.ceiling(positions[middle] - positions[runStart]) > room { high = middle } else { low = middle + 1 }
                    }
                }
                var fitted = low - 1
                while fitted >= i && paragraph.hangs(fitted - 1) { fitted -= 1 }
                if fitted >= i { _ = limit.fits(width(fitted)) }
                i = low
                while i <= segmentEnd {
                    if !paragraph.hangs(i - 1) {
                        _ = limit.fits(width(i))
                        return i
                    }
                    i += 1
                }
                return i
            }
            // The run of the scalar before i, followed as i grows.
            var last = first
            while i <= segmentEnd {
                while paragraph.runEnd(last) < i { last += 1 }
                if !paragraph.hangs(i - 1) {
                    let width = head + paragraph.runCeilings[last] - paragraph.runCeilings[first + 1]
                        + ShapedParagraph.ceiling(positions[i] - positions[Int(paragraph.runStarts[last])])
                    if !limit.fits(width) { return i }
                }
                i += 1
            }
            return i
        }
    }

    /// Rule (Blink's `ShapingLineBreaker::ShapeLine`, for a text item that starts with the line's trailing space):
    /// where a line's visible part ends at the start of a right-to-left item whose first character is a space, Blink
    /// looks for the break in that item by its character positions, each edge rounded up to 1/64 px from the item's
    /// visual left (its logical end). By them the space fits when the room left is at least the item's width rounded
    /// up less the space's left edge rounded up; the item's part of the line is then the space alone, measured by its
    /// own width rounded up, and when that passes the room the item overflows and `LineBreaker::HandleOverflow`
    /// rewinds to the break before it (the space does not hang). When the positions say the space does not fit, it is
    /// a trailing space, which hangs. The two measures differ by 1/64 px at most, so only a box within 1/64 px of one
    /// width breaks otherwise. True when the break is so refused.
    static func leadingSpaceOverflows(
        _ paragraph: ShapedParagraph, start: Int, visible: Int, end: Int, width: Int64, limit: inout Limit
    ) -> Bool {
        guard visible > start, visible < end, paragraph.whiteSpace != .breakSpaces,
            paragraph.scalars[visible] == WhiteSpaceProcessing.space, paragraph.levels[visible] & 1 == 1
        else { return false }
        let run = paragraph.run(of: visible)
        guard Int(paragraph.runStarts[run]) == visible else { return false }
        let positions = paragraph.positions
        let space = positions[visible + 1] - positions[visible]
        // The space fits by its own width: it is kept, and hangs.
        if limit.fits(width + ShapedParagraph.ceiling(space)) { return false }
        let item = positions[paragraph.runEnd(run)] - positions[visible]
        let leftEdge = ShapedParagraph.ceiling(item - space)
        return limit.fits(width + ShapedParagraph.ceiling(item) - leftEdge)
    }

    /// Rule (Blink's `ShapingLineBreaker::ShapeLine`, a line end shaped again): a line that ends where HarfBuzz marks the
    /// edge unsafe is measured in the text item it ends in (a bidi run between control characters), from where the line
    /// enters that item, in the room the items before it leave (each whole item's width rounded up). Blink shapes the
    /// end again from the last safe position before it and keeps the end only when that piece's exact width is at most
    /// the room less the distance to that safe position on the item's grid: positions rounded up to 1/64 px from the
    /// item's start (from its visual left, its logical end, when it is right to left). When the line also starts at an
    /// unsafe edge in that item, the room first gains the start's width on that grid less its reshaped width rounded
    /// up. The line's own width rounded up must fit as well (the caller's test); this one can refuse, by 1/64 px at
    /// most, a break that one passes (an Arabic word broken by `break-all` then ends a letter earlier). nil when memory
    /// ran out.
    func endFits(_ paragraph: ShapedParagraph, start: Int, end: Int, lineEnd: Int, limit: inout Limit, memory: ParagraphMemory) -> Bool? {
        guard end > start else { return true }
        let run = paragraph.run(of: end - 1)
        let runStart = Int(paragraph.runStarts[run])
        let runEnd = paragraph.runEnd(run)
        guard end < runEnd, paragraph.unsafe[end] != 0 else { return true }
        let from = max(start, runStart)
        var firstSafe = from
        if from > runStart && paragraph.unsafe[from] != 0 {
            firstSafe += 1
            while firstSafe < end && paragraph.unsafe[firstSafe] != 0 { firstSafe += 1 }
        }
        // No safe position inside: Blink shapes the line's part of the item whole and tests only its width.
        guard firstSafe < end else { return true }
        var lastSafe = end - 1
        while lastSafe > firstSafe && paragraph.unsafe[lastSafe] != 0 { lastSafe -= 1 }
        let positions = paragraph.positions
        let rightToLeft = paragraph.levels[runStart] & 1 == 1
        let itemWidth = positions[runEnd] - positions[runStart]
        // A position's distance from the item's logical start on its grid (1/65536 px, a multiple of 1/64 px).
        func grid(_ i: Int) -> Int64 {
            let advance = positions[i] - positions[runStart]
            return rightToLeft
                ? ShapedParagraph.ceiling(itemWidth) - ShapedParagraph.ceiling(itemWidth - advance) : ShapedParagraph.ceiling(advance)
        }
        // The items before: their widths rounded up (the first's start shaped again where unsafe).
        var before: Int64 = 0
        if from > start {
            guard let width = exactWidth(paragraph, start, from, memory) else { return nil }
            before = width
        }
        // The room's adjustment for a start shaped again.
        var gained: Int64 = 0
        if firstSafe > from {
            var head = memory.edge(starting: from)
            if head == nil {
                guard let shaped = reshape(paragraph, from, firstSafe) else { return nil }
                memory.remember(shaped, starting: from)
                head = shaped
            }
            gained = grid(firstSafe) - grid(from) - ShapedParagraph.ceiling(head ?? 0)
        }
        var tail = memory.edge(ending: end, through: lineEnd)
        if tail == nil {
            guard let shaped = reshape(paragraph, lastSafe, lineEnd, measuredEnd: end) else { return nil }
            memory.remember(shaped, ending: end, through: lineEnd)
            tail = shaped
        }
        // Blink compares the piece's exact width with LayoutUnits: rounded up, the sum fits where Blink's test passes.
        let needed = before + grid(lastSafe) - grid(from) - gained + (tail ?? 0)
        return limit.fits((needed + 1023) / 1024 * 1024)
    }

    /// Rule (measured in Chromium 156; the Blink path is not found): when the line's first break is at a soft hyphen
    /// whose hyphenated line fits neither the width nor the width less the hyphen, the line ends instead at the first
    /// break at or after where it stops fitting when its text up to there fits with the part in its last text item
    /// measured by its positions on that item's 1/64 px grid (each edge's distance from the item's start rounded up,
    /// from its visual left, its logical end, when it is right to left; the positions `ShapingLineBreaker::ShapeLine`
    /// looks for the break by), the items before by their widths rounded up: the word overflows by its width rounded
    /// up, where the hyphenated line would overflow further. `.some(nil)` when it does not; nil when memory ran out.
    private func wordOnItemGrid(
        _ paragraph: ShapedParagraph, start: Int, after hyphenEnd: Int, overflowAt: Int, segmentEnd: Int, limit: inout Limit,
        scanner: BreakOpportunities, style: ParagraphStyle, memory: ParagraphMemory
    ) -> BrokenLine?? {
        guard paragraph.tabRuns.isEmpty else { return .some(nil) }
        var end = overflowAt
        while end < segmentEnd && !scanner.isOpportunity(end) { end += 1 }
        let visible = paragraph.visibleEnd(start, end)
        guard end > hyphenEnd, visible > start else { return .some(nil) }
        let run = paragraph.run(of: visible - 1)
        let runStart = Int(paragraph.runStarts[run])
        let from = max(start, runStart)
        var before: Int64 = 0
        if from > start {
            guard let width = exactWidth(paragraph, start, from, memory) else { return nil }
            before = width
        }
        let positions = paragraph.positions
        let rightToLeft = paragraph.levels[runStart] & 1 == 1
        let itemWidth = positions[paragraph.runEnd(run)] - positions[runStart]
        func grid(_ i: Int) -> Int64 {
            let advance = positions[i] - positions[runStart]
            return rightToLeft
                ? ShapedParagraph.ceiling(itemWidth) - ShapedParagraph.ceiling(itemWidth - advance) : ShapedParagraph.ceiling(advance)
        }
        guard limit.fits(before + grid(visible) - grid(from)) else { return .some(nil) }
        guard let word = exactLine(paragraph, start, end, style: style, memory: memory) else { return nil }
        return .some(word)
    }

    /// Rule: inside a right-to-left glyph cluster (a lam-alef) Chromium does not break;
    /// the line ends before the cluster instead. After a soft hyphen inside one (a lam, a soft hyphen, an alef) it
    /// breaks (measured).
    static func insideRightToLeftCluster(_ paragraph: ShapedParagraph, _ i: Int) -> Bool {
        paragraph.unsafe[i] & 2 != 0 && paragraph.levels[i] & 1 == 1 && paragraph.scalars[i - 1] != ParagraphShaper.softHyphen
    }

    /// Rule: the longest run of whole grapheme clusters from `start` that fits (at least the first cluster, however
    /// many scalars it has), its end shaped again when HarfBuzz asks. Every position before `overflowAt` whose scalar
    /// before it does not hang was found to fit by its positions' width.
    func graphemeCut(
        _ paragraph: ShapedParagraph, _ start: Int, before overflowAt: Int, segmentEnd: Int, limit: inout Limit, tabs: inout LineTabs,
        style: ParagraphStyle, memory: ParagraphMemory
    ) -> BrokenLine? {
        // Rule: as at any break, no line ends inside a right-to-left glyph cluster (a lam-alef): the cut is before it.
        func isClusterEnd(_ i: Int) -> Bool {
            i == segmentEnd || (paragraph.graphemeStarts[i] != 0 && !Self.insideRightToLeftCluster(paragraph, i))
        }
        // The first cluster's end (however it is shaped), then each further cluster end up to where the line stopped
        // fitting while it fits.
        var first = start + 1
        while first < segmentEnd && paragraph.graphemeStarts[first] == 0 { first += 1 }
        guard first <= segmentEnd else { return nil }
        var last = first
        var i = first + 1
        while i <= min(overflowAt, segmentEnd) {
            if isClusterEnd(i) {
                if i == overflowAt || paragraph.hangs(i - 1) {
                    guard let width = lineWidth(paragraph, start, i, tabs: &tabs, style: style, memory: memory, exact: false),
                        limit.fits(width)
                    else { break }
                }
                last = i
            }
            i += 1
        }
        // From the last cluster end back: the first whose line fits once its edge is shaped again (exactly for a
        // bounded number of tries), or the first cluster's end.
        // Rule (Blink's soft hyphen, as for any break): a cut after a soft hyphen shows the hyphen; when the hyphen
        // does not fit, the line is cut again in its width less the hyphen's advance.
        var tries = 0
        var candidate = last
        var narrowed: Int64 = 0
        while true {
            guard let width = lineWidth(paragraph, start, candidate, tabs: &tabs, style: style, memory: memory, exact: tries < Self.maxRetries)
            else { return nil }
            tries += 1
            let hyphen = hyphenAdvance(paragraph, candidate, segmentEnd: segmentEnd, style: style)
            if candidate == first { return BrokenLine(start: start, end: candidate, visible: candidate, width: width + hyphen) }
            if narrowed > 0 {
                if limit.fits(width + narrowed) { return BrokenLine(start: start, end: candidate, visible: candidate, width: width + hyphen) }
            } else if limit.fits(width + hyphen) {
                guard let reshaped = endFits(paragraph, start: start, end: candidate, lineEnd: candidate, limit: &limit, memory: memory)
                else { return nil }
                if reshaped { return BrokenLine(start: start, end: candidate, visible: candidate, width: width + hyphen) }
            } else if hyphen > 0 && limit.fits(width) {
                narrowed = hyphen
            }
            candidate -= 1
            while candidate > first && !isClusterEnd(candidate) { candidate -= 1 }
        }
    }

    /// Where a line's tab runs take it, measured as the line asks: Blink's position at each tab (the line's pieces
    /// before it, each rounded up to 1/64 px) and the line's width after it.
    struct LineTabs {
        let start: Int
        /// Per tab measured, from the line's start on: the position after it and the line's width there.
        var ends: [Int] = []
        var widths: [Int64] = []
        /// The next tab run to measure (an index into the paragraph's tab runs).
        var next: Int

        init(_ paragraph: ShapedParagraph, from start: Int) {
            self.start = start
            next = paragraph.tabRuns.isEmpty ? 0 : paragraph.firstTabRun(endingAfter: start)
        }
    }

    /// Rule: the width of a line's scalars[start..<end] (1/65536 px): the pieces between its tab runs as `exactWidth`
    /// (or, when `exact` is false, `approximateWidth`) gives them, each run of tabs as wide as it advances to the
    /// next tab stop from where the line has got to, rounded up to 1/64 px. nil when memory ran out.
    func lineWidth(
        _ paragraph: ShapedParagraph, _ start: Int, _ end: Int, lineEnd: Int? = nil, tabs: inout LineTabs, style: ParagraphStyle,
        memory: ParagraphMemory, exact: Bool
    ) -> Int64? {
        var from = start
        var base: Int64 = 0
        if !paragraph.tabRuns.isEmpty {
            guard measureTabs(paragraph, before: end, &tabs, style: style, memory: memory) else { return nil }
            // The last tab measured that ends at or before `end`.
            var low = 0
            var high = tabs.ends.count
            while low < high {
                let middle = (low + high) / 2
                if tabs.ends[middle] <= end { low = middle + 1 } else { high = middle }
            }
            if low > 0 {
                from = tabs.ends[low - 1]
                base = tabs.widths[low - 1]
            }
        }
        if exact {
            guard let rest = exactWidth(paragraph, from, end, memory, lineEnd: lineEnd) else { return nil }
            return base + rest
        }
        return base + paragraph.approximateWidth(from, end)
    }

    /// Measures the line's tab runs that start before `end` (each once per line). false when memory ran out.
    private func measureTabs(
        _ paragraph: ShapedParagraph, before end: Int, _ tabs: inout LineTabs, style: ParagraphStyle, memory: ParagraphMemory
    ) -> Bool {
        var advances: [Float] = []
        while tabs.next < paragraph.tabRuns.count {
            let run = paragraph.tabRuns[tabs.next]
            let runStart = max(Int(run.start), tabs.start)
            guard runStart < end else { break }
            let from = tabs.ends.last ?? tabs.start
            guard let piece = exactWidth(paragraph, from, runStart, memory) else { return false }
            let before = (tabs.widths.last ?? 0) + piece
            // Rule (Blink's): tabs advance from the line's position in float px, one after the other; the run is as wide
            // as its advances, rounded up to 1/64 px. A line ending inside the run keeps the advances of its first tabs,
            // in a right-to-left run those of its last ones (Blink attributes a right-to-left run's advances in reverse).
            let origin = Float(Double(before) / Self.unit) + style.tabStopShift
            var position = origin
            advances.removeAll(keepingCapacity: true)
            for _ in runStart..<Int(run.end) {
                let advance = tabAdvance(at: position, style: style)
                advances.append(advance)
                position += advance
            }
            let reversed = paragraph.levels[runStart] & 1 == 1
            var taken: Float = 0
            for k in advances.indices {
                taken += reversed ? advances[advances.count - 1 - k] : advances[k]
                let width = k == advances.count - 1 ? position - origin : taken
                tabs.ends.append(runStart + k + 1)
                tabs.widths.append(before + Int64((Double(width) * 64).rounded(.up)) * 1024)
            }
            tabs.next += 1
        }
        return true
    }

    /// Rule (Blink's `Font::TabWidth`): the distance from `position` to the next tab stop (tab-size × the primary
    /// face's space advance with its letter and word spacing, as CSS Text defines a tab's measure, or its length), one
    /// stop further when that is less than half a space; with a tab size of 0, no advance.
    func tabAdvance(at position: Float, style: ParagraphStyle) -> Float {
        let space = spaceAdvance()
        let interval: Float
        switch style.tabSize {
        case .spaces(let count): interval = Float(count) * (space + Float(font.spacing.letter) + Float(font.spacing.word))
        case .length(let px): interval = Float(px)
        }
        guard interval > 0 else { return 0 }
        var offset = position.truncatingRemainder(dividingBy: interval)
        if offset < 0 { offset += interval }
        var distance = interval - offset
        if distance < space / 2 { distance += interval }
        return distance
    }

    /// Rule: the width of scalars[start..<end], each bidi run's part rounded up to 1/64 px; a
    /// part whose edge HarfBuzz marks unsafe has that edge's piece (up to the nearest safe position)
    /// shaped again, together with the line's hanging spaces after `end` up to `lineEnd` (Chromium shapes a
    /// line with them, so a space can still position what it follows: Inter kerns a comma before a space).
    /// nil when memory ran out.
    func exactWidth(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int, _ memory: ParagraphMemory, lineEnd: Int? = nil) -> Int64? {
        guard end > start else { return 0 }
        let first = paragraph.run(of: start)
        let last = paragraph.run(of: end - 1)
        // The first run's part, the whole runs between (their rounded widths summed, at once) and the last run's part.
        func part(_ run: Int) -> Int64? {
            let runStart = Int(paragraph.runStarts[run])
            let runEnd = paragraph.runEnd(run)
            let a = max(start, runStart)
            let b = min(end, runEnd)
            let tailEnd = run == last ? min(max(lineEnd ?? end, b), runEnd) : b
            return segmentAdvance(paragraph, a, b, tailEnd: tailEnd, runStart: runStart, runEnd: runEnd, memory).map(ShapedParagraph.ceiling)
        }
        guard var total = part(first) else { return nil }
        if last > first {
            if last > first + 1 { total += paragraph.runCeilings[last] - paragraph.runCeilings[first + 1] }
            guard let tail = part(last) else { return nil }
            total += tail
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
        if let lineHeight = style.lineHeight {
            // (The primary face's metrics are worked out from its units at each call: only where they are used.)
            let primary = font.lineMetrics
            // The leading, split in 1/64 px with the smaller half above (as LayoutUnit divides).
            let leading = (lineHeight - primary.ascent - primary.descent) * 64
            let above = (leading / 2).rounded(.towardZero) / 64
            return (lineHeight, primary.ascent + above)
        }
        let boxes = faceBoxes
        var (ascent, descent) = boxes[font.primary]
        // A paragraph in one face: its box counts on every line that draws something.
        if paragraph.onlyFace >= 0 {
            var i = start
            while i < end && WhiteSpaceProcessing.isControl(paragraph.scalars[i]) { i += 1 }
            if i < end {
                ascent = max(ascent, boxes[paragraph.onlyFace].ascent)
                descent = max(descent, boxes[paragraph.onlyFace].descent)
            }
            return (ascent + descent, ascent)
        }
        // Control characters (a forced break, tabs) are in the primary face. Each run of one face the line crosses
        // counts, from the last starting at or before the line's start.
        let runs = paragraph.faceRuns
        guard start < end, !runs.isEmpty else { return (ascent + descent, ascent) }
        var low = 0
        var high = runs.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(runs[middle].start) <= start { low = middle } else { high = middle }
        }
        var k = low
        while k < runs.count && Int(runs[k].start) < end {
            let face = Int(runs[k].face)
            if face >= 0 {
                ascent = max(ascent, boxes[face].ascent)
                descent = max(descent, boxes[face].descent)
            }
            k += 1
        }
        return (ascent + descent, ascent)
    }

    /// Rule for `ellipsis`: on the last line shown when lines are hidden, U+2026 follows the line if it fits
    /// after it; on that line when it does not, and on a `nowrap` line that overflows, the line keeps
    /// the longest prefix of grapheme clusters that fits with the ellipsis (at least its first).
    func ellipsize(
        _ layout: inout ParagraphLayout, _ paragraph: ShapedParagraph, _ breaks: [BrokenLine], width: Double, style: ParagraphStyle,
        memory: ParagraphMemory
    ) {
        guard let ellipsis = ellipsisWidth() else { return }
        let clamped = layout.lineCount > layout.lines.count
        let index = layout.lines.count - 1
        // The first line's box is its indent narrower.
        let box = Self.units(width) - (index == 0 ? style.textIndent.units(width: width) : 0)
        let line = breaks[index]
        // Rule (Blink's `CanFitOnLine`): a `nowrap` line overflows when it is wider than its box plus 1/64 px.
        if clamped || (!style.whiteSpace.wraps && line.width > box + 1024) {
            // The line's text up to its forced break, if it ends in one.
            var cutEnd = line.end
            while cutEnd > line.start && WhiteSpaceProcessing.isControl(paragraph.scalars[cutEnd - 1])
                && paragraph.scalars[cutEnd - 1] != WhiteSpaceProcessing.tab
            {
                cutEnd -= 1
            }
            // Rule: a line that draws nothing (a forced break alone) gets no ellipsis (Blink places it after a fragment).
            guard cutEnd > line.start else { return }
            // What the ellipsis follows when the line fits with it: the line without its forced break, its kept spaces
            // and tabs included (spaces that collapse are removed at the line's end).
            var visible = style.whiteSpace.collapsesSpaces ? line.visible : cutEnd
            var tabs = LineTabs(paragraph, from: line.start)
            guard var drawn = visible == line.visible ? line.width
                : lineWidth(paragraph, line.start, visible, tabs: &tabs, style: style, memory: memory, exact: true)
            else { return }
            var end = paragraph.utf16End(after: visible)
            if !(clamped && drawn + ellipsis.width <= box) {
                // The longest prefix of grapheme clusters (spaces counted) within the box less the
                // ellipsis, at least the first cluster.
                let available = box - ellipsis.width
                var best = -1
                var bestWidth: Int64 = 0
                var i = line.start + 1
                while i <= cutEnd {
                    if i == cutEnd || paragraph.graphemeStarts[i] != 0 {
                        let prefix = lineWidth(paragraph, line.start, i, tabs: &tabs, style: style, memory: memory, exact: false) ?? 0
                        if best < 0 || prefix <= available { best = i; bestWidth = prefix } else { break }
                    }
                    i += 1
                }
                visible = max(best, line.start + 1)
                drawn = bestWidth
                // The cut line ends in the ellipsis, not in its hyphen.
                layout.lines[index].hyphen = nil
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

import CHarfBuzzShim

/// ICU's line-break boundaries of one paragraph as seen from any line start, for about one pass of ICU over
/// the text however many lines and widths ask.
///
/// Rule: ICU sees the text from the line start (as Chromium's line breaker does). From one of its own
/// boundaries it finds what it finds over the whole text, except in the last word of a run it breaks by
/// dictionary (Thai, Lao, Khmer, Burmese) when the line starts within 4 scalars of the run's end (its
/// dictionary breakers leave a run that short whole). From a line start that is not one of its boundaries
/// (a word cut by `anywhere` or `break-word`, a break Blink's rules add) it finds its own boundaries until
/// they meet the whole text's, and the same ones again from any of them. So ICU runs once over the whole
/// text, and again only from such a line start, over the line and a lookahead, remembered by line start for
/// every width. One request on one thread uses it, never overlapping its accesses (so they are not checked at run
/// time: the checks cost more than the lookups they guard).
final class LineBoundaries {
    private var scalars: [UInt32]
    private var lineBreakClasses: [UInt8]
    private var scripts: [UInt32]
    /// The paragraph that keeps the whole text's boundaries once found (none in tests of the boundaries alone).
    private var paragraph: ShapedParagraph?
    /// ICU's boundaries over the whole text (1 before a scalar where one is); empty until first asked.
    @exclusivity(unchecked) private var whole: [UInt8] = []
    /// ICU run again from a line start (`runs`), by line start (-1: not run); -2 - k where no run starts but the run
    /// `k` from an earlier start finds a boundary there (before it meets the whole text's).
    @exclusivity(unchecked) private var runAt: [Int32] = []
    @exclusivity(unchecked) private var runs: [Run] = []
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// Scalars ICU was run over since the last `takeWork()`.
    @exclusivity(unchecked) private var work = 0
    /// ICU failed (memory): no boundaries from it, Blink's other rules alone.
    @exclusivity(unchecked) private var failed = false

    /// ICU's boundaries of the text from `origin` are taken up to this many scalars before the end of the text
    /// it was given (its rules and dictionaries look ahead: 16 scalars gave every boundary ICU finds over the
    /// whole rest of the text, for every line start of the Chromium fixtures and of generated Thai, Lao, Khmer
    /// and Burmese text, words and random letters alike, where 12 missed some).
    static let icuLookahead = 16
    /// ICU's dictionary breakers leave a run of at most this many scalars whole.
    static let shortestSplitRun = 4

    /// ICU run from `origin` over the text up to `end`: its boundaries before scalars origin + 1 ..< end, of which
    /// those up to `trusted` are taken, and the first (`meet`) that is one of the whole text's, from which on
    /// the whole text's are taken (Int.max while none is known).
    struct Run {
        let origin: Int
        var own: [UInt8]
        var end: Int
        var trusted: Int
        var meet: Int
    }

    /// ICU's boundaries seen from one line start.
    struct View {
        let whole: [UInt8]
        let lineStart: Int
        /// ICU run from `origin` (≤ lineStart, one of whose boundaries the line start is).
        let origin: Int
        let own: [UInt8]
        let trusted: Int
        let meet: Int

        /// No boundaries: a placeholder where no view was asked for yet.
        static let none = View(whole: [], lineStart: 0, origin: 0, own: [], trusted: 0, meet: .max)

        /// Whether ICU finds a boundary before scalar `i` (lineStart < i < count); nil past what the run covers.
        func isBoundary(_ i: Int) -> Bool? {
            if i >= meet { return whole[i] != 0 }
            return i <= trusted ? own[i - origin - 1] != 0 : nil
        }
    }

    /// A paragraph's boundaries: the whole text's are the ones the paragraph keeps, found once for every request.
    init(_ paragraph: ShapedParagraph) {
        scalars = []
        lineBreakClasses = []
        scripts = []
        count = paragraph.count
        self.paragraph = paragraph
        loaded = false
    }

    /// The boundaries of another paragraph, as `init(_:)` makes them (the work not yet taken still counted): the
    /// paragraphs of one request reuse one.
    func reset(_ paragraph: ShapedParagraph) {
        count = paragraph.count
        self.paragraph = paragraph
        loaded = false
        if !whole.isEmpty { whole = [] }
        if !runAt.isEmpty { runAt = [] }
        if !runs.isEmpty { runs = [] }
        failed = false
    }

    /// A text's boundaries from its scalars, their UAX #14 classes (ICU's) and scripts.
    init(scalars: [UInt32], lineBreakClasses: [UInt8], scripts: [UInt32]) {
        self.scalars = scalars
        self.lineBreakClasses = lineBreakClasses
        self.scripts = scripts
        count = scalars.count
        paragraph = nil
        loaded = true
    }

    /// Takes the paragraph's arrays on the first boundary asked for (most paragraphs a request lays out never ask ICU:
    /// taking them for each cost its retains and releases).
    private func load() {
        guard !loaded, let paragraph else { return }
        scalars = paragraph.scalars
        lineBreakClasses = paragraph.lineBreakClasses
        scripts = paragraph.scripts
        loaded = true
    }

    /// Scalars of the paragraph.
    @exclusivity(unchecked) private(set) var count: Int
    /// Whether `scalars`, `lineBreakClasses` and `scripts` are the paragraph's (`load`).
    @exclusivity(unchecked) private var loaded: Bool

    /// Line starts ICU was run again from.
    var restarts: Int { runs.count }

    /// Scalars ICU ran over since the last call (the cost model's steps for line breaking).
    func takeWork() -> Int {
        defer { work = 0 }
        return work
    }

    /// ICU's boundaries seen from `lineStart` up to `reach` at least, which `previous` (seen from an earlier line
    /// start), when given, may already hold; nil when ICU failed (memory).
    func view(from lineStart: Int, after previous: View?, reach: Int) -> View? {
        load()
        guard ensureWhole() else { return nil }
        let short = endsShortRun(lineStart)
        if lineStart == 0 || (whole[lineStart] != 0 && !short) {
            return View(whole: whole, lineStart: lineStart, origin: lineStart, own: [], trusted: lineStart, meet: lineStart)
        }
        // Rule: from one of its own boundaries, ICU finds what it found from the earlier line start.
        if let previous, !short, previous.lineStart < lineStart, previous.isBoundary(lineStart) == true {
            return View(
                whole: whole, lineStart: lineStart, origin: previous.origin, own: previous.own, trusted: previous.trusted,
                meet: previous.meet)
        }
        // The same rule for a run from any earlier start (another width's line) that finds a boundary here.
        if !short, !runAt.isEmpty, runAt[lineStart] <= -2 {
            let known = runs[Int(-2 - runAt[lineStart])]
            return View(
                whole: whole, lineStart: lineStart, origin: known.origin, own: known.own, trusted: known.trusted, meet: known.meet)
        }
        return run(from: lineStart, lineStart: lineStart, reach: reach)
    }

    /// `view` with ICU run from its origin far enough to cover `reach`.
    func extended(_ view: View, to reach: Int) -> View? {
        run(from: view.origin, lineStart: view.lineStart, reach: reach)
    }

    private func ensureWhole() -> Bool {
        if !whole.isEmpty || failed { return !failed }
        if let kept = paragraph?.icuBoundaries.withLock({ $0 }) {
            whole = kept
            return true
        }
        let count = scalars.count
        whole = [UInt8](repeating: 0, count: count)
        work += count
        if scalars.withUnsafeBufferPointer({ tfont_line_boundaries($0.baseAddress, 0, count, &whole) }) != 0 {
            failed = true
            return false
        }
        paragraph?.icuBoundaries.withLock { $0 = whole }
        return true
    }

    /// Rule: `i` is inside a run that ICU breaks by dictionary (line-break class SA, one script) at most
    /// `shortestSplitRun` scalars before its end, where a dictionary breaker started at `i` splits nothing.
    private func endsShortRun(_ i: Int) -> Bool {
        let complex = LineBreakClass.complexContext
        guard i > 0, i < scalars.count, lineBreakClasses[i] == complex, lineBreakClasses[i - 1] == complex,
            scripts[i] == scripts[i - 1]
        else { return false }
        var end = i + 1
        while end < scalars.count && end - i <= Self.shortestSplitRun && lineBreakClasses[end] == complex && scripts[end] == scripts[i] {
            end += 1
        }
        return end - i <= Self.shortestSplitRun
    }

    /// Rule: after a run ICU breaks by dictionary (class SA), one space (U+0020) and a boundary of the whole text,
    /// ICU decides nothing before that boundary from the text after it (the dictionary's range ends at the space, no
    /// rule carries across a space after SA, and it breaks after the space as the whole text does): run up to there,
    /// its boundaries are all taken and it meets the whole text's there. The first such position from `low`, before
    /// `high`; nil when there is none.
    private func closedEnd(from low: Int, before high: Int) -> Int? {
        var q = low
        while q < high {
            if scalars[q - 1] == 0x20 && scalars[q] != 0x20 && lineBreakClasses[q - 2] == LineBreakClass.complexContext
                && whole[q] != 0
            {
                return q
            }
            q += 1
        }
        return nil
    }

    /// The view from `lineStart` of ICU run from `origin` (remembered), run again over a window twice as long
    /// (at least to `reach` plus the lookahead) while it does not cover `reach`.
    private func run(from origin: Int, lineStart: Int, reach: Int) -> View? {
        let count = scalars.count
        if runAt.isEmpty { runAt = [Int32](repeating: -1, count: count) }
        var index = Int(runAt[origin])
        if index < 0 {
            index = runs.count
            runs.append(Run(origin: origin, own: [], end: origin, trusted: origin, meet: .max))
            runAt[origin] = Int32(index)
        }
        var known = runs[index]
        if known.trusted < min(reach, count - 1) && known.meet > reach {
            var end = min(count, max(reach + Self.icuLookahead + 1, origin + 2 * (known.end - origin)))
            let closed = end < count ? closedEnd(from: max(reach + 1, origin + 2), before: end) : nil
            if let closed { end = closed }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: repeatElement(0, count: end - origin))
            work += end - origin
            if scalars.withUnsafeBufferPointer({ tfont_line_boundaries($0.baseAddress, origin, end, &scratch) }) != 0 {
                failed = true
                return nil
            }
            known.own = Array(scratch[1...])
            known.end = end
            known.trusted = end == count ? count : closed != nil ? end - 1 : end - Self.icuLookahead
            known.meet = .max
            // Its boundaries before the meet that are not the whole text's, where no run starts yet, are found from
            // this run's origin.
            var i = origin + 1
            while i <= known.trusted && i < count {
                if scratch[i - origin] != 0 {
                    if whole[i] == 0 {
                        if runAt[i] == -1 { runAt[i] = Int32(-2 - index) }
                    } else if !endsShortRun(i) {
                        known.meet = i
                        break
                    }
                }
                i += 1
            }
            if known.meet == .max, let closed, whole[closed] != 0, !endsShortRun(closed) { known.meet = closed }
            runs[index] = known
        }
        return View(whole: whole, lineStart: lineStart, origin: origin, own: known.own, trusted: known.trusted, meet: known.meet)
    }
}

/// What laying a paragraph out at one width finds that every other width of it can use: ICU's boundaries and
/// the widths of line edges shaped again. Made per paragraph, or reset for the next paragraph of a request (`reset`);
/// one request on one thread uses it.
final class ParagraphMemory {
    let boundaries: LineBoundaries
    /// The advance of the edge piece from a line start at i to the first safe position after it, and of the one
    /// from the last safe position before a line end at i to i (1/65536 px); `unknown` until shaped.
    // One request on one thread reads and writes these, never overlapping: the dynamic exclusivity check cost about a
    // tenth of a narrow width's layout.
    @exclusivity(unchecked) private var heads: [Int64] = []
    @exclusivity(unchecked) private var tails: [Int64] = []
    private static let unknown = Int64.min

    /// The last breaks found: for a style's breaking, the widest width that fitted and the narrowest that did not.
    /// None while its failing width is below its fitting one (no limit lies between). Not an optional: an optional holding a style was copied and destroyed through
    /// its type's metadata, field by field, which cost about as much as a line's breaking.
    @exclusivity(unchecked) private var last = LastBreaks(style: ParagraphStyle(), fitting: .max, failing: .min, lines: [])

    private struct LastBreaks {
        var style: ParagraphStyle
        var fitting: Int64
        var failing: Int64
        var lines: [ParagraphShaper.BrokenLine]
    }

    /// Lines found from a line start for a style's breaking (`lineStyle`), each with the widest width that fitted it
    /// and the narrowest that did not: by start, the first of a chain (an index into `lineEntries` plus 1; 0 for
    /// none). At most as many as the paragraph has scalars (about 60 bytes each). Kept from the paragraph's second
    /// breaking on (another width, balance's bisection): a paragraph broken once has no use for them.
    @exclusivity(unchecked) private var breakings = 0
    @exclusivity(unchecked) private var lineStyle: ParagraphStyle?
    @exclusivity(unchecked) private var lineChains: [Int32] = []
    @exclusivity(unchecked) private var lineEntries: [RememberedLine] = []

    struct RememberedLine {
        var next: Int32
        var fitting: Int64
        var failing: Int64
        var line: ParagraphShaper.BrokenLine
    }

    /// How many widths the caller lays out after the one it lays out now (a list's widths; Int.max when it does not
    /// say). A greedy breaking with fewer than two after it looks lines up but does not remember its own.
    @exclusivity(unchecked) var widthsAfter = Int.max
    /// Whether the breaking under way remembers the lines it finds.
    @exclusivity(unchecked) private var storesLines = true

    /// Whether a breaking for `style` that starts now looks lines up and remembers them (those of another style
    /// forgotten).
    func remembersLines(for style: ParagraphStyle) -> Bool {
        breakings += 1
        guard breakings > 1 else { return false }
        // A greedy layout's last width remembers nothing (no width after it would look its lines up), nor does the
        // width before it: one later width finds few lines of its own from the same starts compared alike, fewer
        // than the remembering costs (the table per paragraph, an entry per line). Either only looks up the lines
        // remembered for the same breaking, when there are any.
        storesLines = !(widthsAfter < 2 && (style.textWrap == .wrap || style.textWrap == .stable))
        if lineStyle.map({ !$0.breaksAlike(style) }) ?? true {
            guard storesLines else { return false }
            lineStyle = style
            lineChains = [Int32](repeating: 0, count: boundaries.count + 1)
            lineEntries.removeAll()
        }
        return true
    }

    /// The line from `start` found before, when every width it was compared with compares alike with `limit`.
    func line(from start: Int, limit: Int64) -> RememberedLine? {
        var k = Int(lineChains[start])
        while k != 0 {
            let entry = lineEntries[k - 1]
            if entry.fitting <= limit && limit < entry.failing { return entry }
            k = Int(entry.next)
        }
        return nil
    }

    func remember(_ line: ParagraphShaper.BrokenLine, from start: Int, fitting: Int64, failing: Int64) {
        guard storesLines, lineEntries.count < boundaries.count else { return }
        lineEntries.append(RememberedLine(next: lineChains[start], fitting: fitting, failing: failing, line: line))
        lineChains[start] = Int32(lineEntries.count)
    }

    /// `text-wrap: balance`'s widest word for a style's breaking and indent (the same at every width).
    @exclusivity(unchecked) var widestWord: WidestWord?

    struct WidestWord {
        var style: ParagraphStyle
        var indent: Int64
        var width: Int64
    }

    /// The memory a request's paragraphs share, reset for `paragraph` (made on the first).
    static func reused(_ kept: inout ParagraphMemory?, for paragraph: ShapedParagraph) -> ParagraphMemory {
        if let kept {
            kept.reset(paragraph)
            return kept
        }
        let made = ParagraphMemory(paragraph)
        kept = made
        return made
    }

    init(_ paragraph: ShapedParagraph) {
        boundaries = LineBoundaries(paragraph)
    }

    /// The memory of another paragraph, as `init` makes it, its arrays' room kept (the paragraphs of a request reuse
    /// one memory rather than allocating one, with its boundaries, edges and scanner, each).
    func reset(_ paragraph: ShapedParagraph) {
        boundaries.reset(paragraph)
        // Emptied only when not empty: emptying an empty array still made one.
        if !heads.isEmpty { heads.removeAll(keepingCapacity: true) }
        if !tails.isEmpty { tails.removeAll(keepingCapacity: true) }
        // The last breaks match no limit (their array is emptied when the next breaks take it).
        last.fitting = .max
        last.failing = .min
        breakings = 0
        lineStyle = nil
        if !lineChains.isEmpty { lineChains = [] }
        if !lineEntries.isEmpty { lineEntries.removeAll(keepingCapacity: true) }
        widthsAfter = .max
        storesLines = true
        widestWord = nil
        // Not kept: emptying a dictionary in place costs its whole room, every paragraph.
        if !pieces.isEmpty { pieces = [:] }
    }

    /// The scanner of break opportunities for a breaking of this memory's paragraph: one made once and reset for each.
    func scanner(_ paragraph: ShapedParagraph, wordBreak: WordBreak, breakSpaces: Bool, lineStart: Int) -> BreakOpportunities {
        if let kept = keptScanner {
            kept.reset(paragraph, wordBreak: wordBreak, breakSpaces: breakSpaces, lineStart: lineStart)
            return kept
        }
        let made = BreakOpportunities(paragraph, wordBreak: wordBreak, breakSpaces: breakSpaces, lineStart: lineStart, boundaries: boundaries)
        keptScanner = made
        return made
    }

    @exclusivity(unchecked) private var keptScanner: BreakOpportunities?

    /// The breaks of the last width laid out when every width compared against `limit` compares alike.
    func breaks(for style: ParagraphStyle, limit: Int64) -> [ParagraphShaper.BrokenLine]? {
        guard last.fitting <= limit, limit < last.failing, last.style.breaksAlike(style) else { return nil }
        return last.lines
    }

    /// Forgets the last breaks and hands back their array emptied, for the breaks that replace them: its room is
    /// reused when nothing else holds it (the lines of the paragraph's last width or of the paragraph before).
    func takeBreaks() -> [ParagraphShaper.BrokenLine] {
        var lines: [ParagraphShaper.BrokenLine] = []
        swap(&lines, &last.lines)
        last.fitting = .max
        last.failing = .min
        lines.removeAll(keepingCapacity: true)
        return lines
    }

    func remember(_ lines: [ParagraphShaper.BrokenLine], for style: ParagraphStyle, fitting: Int64, failing: Int64) {
        last.style = style
        last.fitting = fitting
        last.failing = failing
        last.lines = lines
    }

    func edge(starting i: Int) -> Int64? {
        let known = i < heads.count ? heads[i] : Self.unknown
        return known == Self.unknown ? nil : known
    }

    /// The tail piece ending (measured) at i and shaped through `through` (the line's hanging spaces).
    func edge(ending i: Int, through: Int) -> Int64? {
        if through != i { return piece(from: -1, to: through, measuredTo: i) }
        let known = i < tails.count ? tails[i] : Self.unknown
        return known == Self.unknown ? nil : known
    }

    func remember(_ advance: Int64, starting i: Int) {
        if heads.isEmpty { heads.append(contentsOf: repeatElement(Self.unknown, count: boundaries.count + 1)) }
        heads[i] = advance
    }

    /// Other pieces (one with no safe position inside, shaped whole; a tail shaped through hanging spaces), by
    /// start (-1 for a tail), end and where they are measured to: at most as many as the paragraph has scalars.
    @exclusivity(unchecked) private var pieces: [Piece: Int64] = [:]
    private struct Piece: Hashable {
        var start: Int
        var end: Int
        var measuredEnd: Int
    }

    func piece(from start: Int, to end: Int, measuredTo measuredEnd: Int) -> Int64? {
        pieces[Piece(start: start, end: end, measuredEnd: measuredEnd)]
    }

    func remember(_ advance: Int64, from start: Int, to end: Int, measuredTo measuredEnd: Int) {
        if pieces.count < boundaries.count { pieces[Piece(start: start, end: end, measuredEnd: measuredEnd)] = advance }
    }

    func remember(_ advance: Int64, ending i: Int, through: Int) {
        if through != i { return remember(advance, from: -1, to: through, measuredTo: i) }
        if tails.isEmpty { tails.append(contentsOf: repeatElement(Self.unknown, count: boundaries.count + 1)) }
        tails[i] = advance
    }
}

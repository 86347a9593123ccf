/// What laying a paragraph out at one width finds that every other width of it can use: ICU's boundaries and
/// the widths of line edges shaped again. Made per paragraph; one request on one thread uses it.
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
    private var last: (style: ParagraphStyle, fitting: Int64, failing: Int64, lines: [ParagraphShaper.BrokenLine])?

    /// Lines found from a line start for a style's breaking (`lineStyle`), each with the widest width that fitted it
    /// and the narrowest that did not: by start, the first of a chain (an index into `lineEntries` plus 1; 0 for
    /// none). At most as many as the paragraph has scalars (about 60 bytes each). Kept from the paragraph's second
    /// breaking on (another width, balance's bisection): a paragraph broken once has no use for them.
    private var breakings = 0
    private var lineStyle: ParagraphStyle?
    @exclusivity(unchecked) private var lineChains: [Int32] = []
    @exclusivity(unchecked) private var lineEntries: [RememberedLine] = []

    struct RememberedLine {
        var next: Int32
        var fitting: Int64
        var failing: Int64
        var line: ParagraphShaper.BrokenLine
    }

    /// The caller lays out no width after the one it lays out now (a list's last width): a greedy breaking then looks
    /// lines up but has no later one to remember its own for.
    var lastWidth = false
    /// Whether the breaking under way remembers the lines it finds.
    private var storesLines = true

    /// Whether a breaking for `style` that starts now looks lines up and remembers them (those of another style
    /// forgotten).
    func remembersLines(for style: ParagraphStyle) -> Bool {
        breakings += 1
        guard breakings > 1 else { return false }
        // The last width of a greedy layout remembers nothing (no width after it would look its lines up): it only
        // looks up the lines remembered for the same breaking, when there are any.
        storesLines = !(lastWidth && (style.textWrap == .wrap || style.textWrap == .stable))
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
    var widestWord: (style: ParagraphStyle, indent: Int64, width: Int64)?

    init(_ paragraph: ShapedParagraph) {
        boundaries = LineBoundaries(paragraph)
    }

    /// The breaks of the last width laid out when every width compared against `limit` compares alike.
    func breaks(for style: ParagraphStyle, limit: Int64) -> [ParagraphShaper.BrokenLine]? {
        guard let last, last.fitting <= limit, limit < last.failing, last.style.breaksAlike(style) else { return nil }
        return last.lines
    }

    func remember(_ lines: [ParagraphShaper.BrokenLine], for style: ParagraphStyle, fitting: Int64, failing: Int64) {
        last = (style, fitting, failing, lines)
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
        if heads.isEmpty { heads = [Int64](repeating: Self.unknown, count: boundaries.count + 1) }
        heads[i] = advance
    }

    /// Other pieces (one with no safe position inside, shaped whole; a tail shaped through hanging spaces), by
    /// start (-1 for a tail), end and where they are measured to: at most as many as the paragraph has scalars.
    private var pieces: [Piece: Int64] = [:]
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
        if tails.isEmpty { tails = [Int64](repeating: Self.unknown, count: boundaries.count + 1) }
        tails[i] = advance
    }
}

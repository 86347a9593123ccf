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

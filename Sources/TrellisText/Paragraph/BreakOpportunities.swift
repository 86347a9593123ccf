import CHarfBuzzShim

/// Where a line may end, as Chromium's line breaker decides for text seen from a line start: ICU's
/// line breaker (UAX #14, `lb=normal`) with Blink's rules on top, in the order Blink applies them.
struct BreakOpportunities {
    let paragraph: ShapedParagraph
    let wordBreak: WordBreak
    /// The line start: ICU sees the text from here.
    private(set) var lineStart: Int
    /// ICU's boundaries of the paragraph, found once and remembered across line starts and widths.
    let boundaries: LineBoundaries
    /// ICU's boundaries seen from the line start, asked for on the first position only ICU decides, and those of
    /// the last line start before it that asked.
    private var seenFromLineStart: LineBoundaries.View?
    private var seenBefore: LineBoundaries.View?
    /// The furthest position the line is expected to ask about (where it stops fitting).
    private var reach = 0
    private let pairs: [UInt8]?
    private let breakAllRows: [UInt64]

    init(_ paragraph: ShapedParagraph, wordBreak: WordBreak, lineStart: Int, boundaries: LineBoundaries) {
        self.paragraph = paragraph
        self.wordBreak = wordBreak
        self.lineStart = lineStart
        self.boundaries = boundaries
        pairs = Self.pairTable
        breakAllRows = LineBreakClass.breakAllBefore
    }

    /// The same text seen from another line start, whose line asks about positions up to `reach`.
    mutating func startLine(at start: Int, reach: Int) {
        lineStart = start
        self.reach = reach
        if let seen = seenFromLineStart { seenBefore = seen }
        seenFromLineStart = nil
    }

    /// Blink's pair table for U+0021–U+00FF (ICU's pairs with Blink's ASCII rules on top); nil when
    /// ICU failed to build it.
    static let pairTable: [UInt8]? = {
        guard let icu = tfont_line_pair_table() else { return nil }
        var table = Array(UnsafeBufferPointer(start: icu, count: pairCount * pairCount))
        for a in 0x21...0x7F {
            for b in 0x21...0x7F { table[(a - 0x21) * pairCount + (b - 0x21)] = asciiBreak(UInt32(a), UInt32(b)) ? 1 : 0 }
        }
        return table
    }()
    static let pairCount = 0xFF - 0x21 + 1

    /// Rule (Blink's, for compatibility with other browsers): between two printable ASCII
    /// characters a line breaks only before an opening bracket after punctuation, and after `-` or `?`;
    /// never before closing or joining punctuation, never after a letter, digit or opening character.
    static func asciiBreak(_ a: UInt32, _ b: UInt32) -> Bool {
        func isIn(_ c: UInt32, _ set: String) -> Bool { set.unicodeScalars.contains { $0.value == c } }
        let isDigit = { (c: UInt32) in (0x30...0x39).contains(c) }
        let isLetter = { (c: UInt32) in (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        // Nothing breaks after a letter, a digit, or $ ' ( / < @ [ ^ _ ` { DEL.
        if isLetter(a) || isDigit(a) || isIn(a, "$'(/<@[^_`{") || a == 0x7F { return false }
        // Nothing breaks before closing or joining punctuation: ) , . / : ; ? ] } and !.
        if isIn(b, "),./:;?]}!") { return false }
        if a == 0x2D {
            // `-` breaks before anything but `$` and digits (those are decided from the context).
            return b != 0x24 && !isDigit(b)
        }
        if a == 0x3F {
            // `?` breaks before anything but quotes.
            return !isIn(b, "\"'")
        }
        return isIn(b, "(<[{")
    }

    /// Breaking before the space character; Blink breaks only after a run of them.
    static func isBreakableSpace(_ scalar: UInt32) -> Bool { scalar == 0x20 }

    enum Fast { case noBreak, canBreak, unknown }

    /// Rule: Blink decides pairs of characters up to U+00FF from its table, `-` before a
    /// digit from the character before it, and leaves the rest to ICU.
    func fast(_ i: Int) -> Fast {
        let scalars = paragraph.scalars
        let last = scalars[i - 1]
        let current = scalars[i]
        if last < 0x21 || current < 0x21 { return .noBreak }
        if last == 0x2D {
            if current <= 0x7F {
                if (0x30...0x39).contains(current) {
                    // `-` before a digit breaks only after a letter or digit (ABCD-1234), not as a minus sign.
                    guard i - 2 >= lineStart else { return .noBreak }
                    let before = scalars[i - 2]
                    let alphanumeric = (0x30...0x39).contains(before) || (0x41...0x5A).contains(before) || (0x61...0x7A).contains(before)
                    return alphanumeric ? .canBreak : .noBreak
                }
            } else {
                return .unknown
            }
        }
        if last <= 0xFF && current <= 0xFF {
            guard let table = pairs else { return .unknown }
            return table[Int(last - 0x21) * Self.pairCount + Int(current - 0x21)] != 0 ? .canBreak : .noBreak
        }
        return .unknown
    }

    /// Whether a line may end before scalar `i` (lineStart < i < count); the paragraph's end always may.
    mutating func isOpportunity(_ i: Int) -> Bool {
        let scalars = paragraph.scalars
        let current = scalars[i]
        let last = scalars[i - 1]
        // Rule: never before a space; always after a run of them.
        if Self.isBreakableSpace(current) { return false }
        if Self.isBreakableSpace(last) { return true }
        let fastResult = fast(i)
        if fastResult == .canBreak { return true }
        switch wordBreak {
        case .breakAll:
            if breakAll(i) { return true }
        case .keepAll:
            if keepAll(i) { return false }
        case .normal:
            break
        }
        if fastResult == .noBreak { return false }
        // Rule: a boundary of ICU's line breaker over the text from the line start.
        guard i > lineStart else { return false }
        return icuBoundary(i) || eastAsianQuotation(i)
    }

    /// Rule: quotation marks between East Asian characters (UAX #14 LB19a of Unicode 15.1, which the
    /// ICU inside Chromium has and Debian's ICU 72 lacks): an opening quotation mark may start a line
    /// after an East Asian character when one follows it, and a line may end after a closing one
    /// between East Asian characters, unless the next character forbids a break before it.
    func eastAsianQuotation(_ i: Int) -> Bool {
        let classes = paragraph.lineBreakClasses
        let bits = paragraph.characterBits
        let eastAsian = UInt8(TFONT_EAST_ASIAN)
        let count = paragraph.count
        if classes[i] == LineBreakClass.quotation, bits[i] & UInt8(TFONT_INITIAL_PUNCTUATION) != 0 {
            return bits[i - 1] & eastAsian != 0 && !LineBreakClass.keepsNext.contains(classes[i - 1])
                && i + 1 < count && bits[i + 1] & eastAsian != 0
        }
        if classes[i - 1] == LineBreakClass.quotation, bits[i - 1] & UInt8(TFONT_FINAL_PUNCTUATION) != 0, i - 2 >= lineStart {
            return bits[i - 2] & eastAsian != 0 && bits[i] & eastAsian != 0
                && !LineBreakClass.keepsPrevious.contains(classes[i])
        }
        return false
    }

    /// Rule for `wordBreak: break-all` (Blink's table over UAX #14 classes): more breaks between letters, digits and
    /// some punctuation; `+` counts as a letter. The class before is the previous character's, as
    /// Blink finds it looking back from a candidate: none after a combining mark.
    func breakAll(_ i: Int) -> Bool {
        let last = lineBreakClass(i - 1)
        let current = lineBreakClass(i)
        guard last < 64, current < 64, breakAllRows[Int(last)] & 1 << current != 0 else { return false }
        // UAX #14 LB21: still no break before a break-after character but `|`.
        return current != LineBreakClass.breakAfter || paragraph.scalars[i] == 0x7C
    }

    func lineBreakClass(_ i: Int) -> UInt8 {
        paragraph.scalars[i] == 0x2B ? LineBreakClass.alphabetic : paragraph.lineBreakClasses[i]
    }

    /// Rule: no break between two letters or digits (a combining mark counts as the
    /// character before it), except in scripts ICU breaks by dictionary (class SA, such as Thai).
    func keepAll(_ i: Int) -> Bool {
        let bits = paragraph.characterBits
        let letterOrNumber = UInt8(TFONT_LETTER | TFONT_NUMBER)
        var before = i - 1
        if bits[before] & UInt8(TFONT_MARK) != 0 {
            guard before - 1 >= lineStart else { return false }
            before -= 1
        }
        return bits[before] & letterOrNumber != 0 && paragraph.lineBreakClasses[before] != LineBreakClass.complexContext
            && bits[i] & letterOrNumber != 0 && paragraph.lineBreakClasses[i] != LineBreakClass.complexContext
    }

    /// ICU's boundary at `i` for the text seen from the line start.
    mutating func icuBoundary(_ i: Int) -> Bool {
        if seenFromLineStart == nil { seenFromLineStart = boundaries.view(from: lineStart, after: seenBefore, reach: max(i, reach)) }
        guard let seen = seenFromLineStart else { return false }
        if let found = seen.isBoundary(i) { return found }
        seenFromLineStart = boundaries.extended(seen, to: max(i, reach))
        return seenFromLineStart?.isBoundary(i) ?? false
    }
}

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
/// every width. One request on one thread uses it.
final class LineBoundaries {
    private let scalars: [UInt32]
    private let lineBreakClasses: [UInt8]
    private let scripts: [UInt32]
    /// ICU's boundaries over the whole text (1 before a scalar where one is); empty until first asked.
    private var whole: [UInt8] = []
    /// ICU run again from a line start (`runs`), by line start (-1: not run).
    private var runAt: [Int32] = []
    private var runs: [Run] = []
    private var scratch: [UInt8] = []
    /// Scalars ICU was run over since the last `takeWork()`.
    private var work = 0
    /// ICU failed (memory): no boundaries from it, Blink's other rules alone.
    private var failed = false

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

        /// Whether ICU finds a boundary before scalar `i` (lineStart < i < count); nil past what the run covers.
        func isBoundary(_ i: Int) -> Bool? {
            if i >= meet { return whole[i] != 0 }
            return i <= trusted ? own[i - origin - 1] != 0 : nil
        }
    }

    convenience init(_ paragraph: ShapedParagraph) {
        self.init(scalars: paragraph.scalars, lineBreakClasses: paragraph.lineBreakClasses, scripts: paragraph.scripts)
    }

    /// A text's boundaries from its scalars, their UAX #14 classes (ICU's) and scripts.
    init(scalars: [UInt32], lineBreakClasses: [UInt8], scripts: [UInt32]) {
        self.scalars = scalars
        self.lineBreakClasses = lineBreakClasses
        self.scripts = scripts
    }

    /// Scalars of the paragraph.
    var count: Int { scalars.count }

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
        return run(from: lineStart, lineStart: lineStart, reach: reach)
    }

    /// `view` with ICU run from its origin far enough to cover `reach`.
    func extended(_ view: View, to reach: Int) -> View? {
        run(from: view.origin, lineStart: view.lineStart, reach: reach)
    }

    private func ensureWhole() -> Bool {
        if !whole.isEmpty || failed { return !failed }
        let count = scalars.count
        whole = [UInt8](repeating: 0, count: count)
        work += count
        if scalars.withUnsafeBufferPointer({ tfont_line_boundaries($0.baseAddress, 0, count, &whole) }) != 0 {
            failed = true
        }
        return !failed
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

    /// The view from `lineStart` of ICU run from `origin` (remembered), run again over a window twice as long
    /// (at least to `reach` plus the lookahead) while it does not cover `reach`.
    private func run(from origin: Int, lineStart: Int, reach: Int) -> View? {
        let count = scalars.count
        if runAt.isEmpty { runAt = [Int32](repeating: -1, count: count) }
        var index = Int(runAt[origin])
        if index < 0 {
            index = runs.count
            runs.append(Run(own: [], end: origin, trusted: origin, meet: .max))
            runAt[origin] = Int32(index)
        }
        var known = runs[index]
        if known.trusted < min(reach, count - 1) && known.meet > reach {
            let end = min(count, max(reach + Self.icuLookahead + 1, origin + 2 * (known.end - origin)))
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: repeatElement(0, count: end - origin))
            work += end - origin
            if scalars.withUnsafeBufferPointer({ tfont_line_boundaries($0.baseAddress, origin, end, &scratch) }) != 0 {
                failed = true
                return nil
            }
            known.own = Array(scratch[1...])
            known.end = end
            known.trusted = end == count ? count : end - Self.icuLookahead
            known.meet = .max
            var i = origin + 1
            while i <= known.trusted && i < count {
                if scratch[i - origin] != 0 && whole[i] != 0 && !endsShortRun(i) {
                    known.meet = i
                    break
                }
                i += 1
            }
            runs[index] = known
        }
        return View(whole: whole, lineStart: lineStart, origin: origin, own: known.own, trusted: known.trusted, meet: known.meet)
    }
}

/// UAX #14 line-break classes as ICU numbers them (ULineBreak).
enum LineBreakClass {
    static let ambiguous: UInt8 = 1, alphabetic: UInt8 = 2, breakAfter: UInt8 = 4, closePunctuation: UInt8 = 8
    static let combiningMark: UInt8 = 9, exclamation: UInt8 = 11, hyphen: UInt8 = 13, infixNumeric: UInt8 = 16
    static let numeric: UInt8 = 19, openPunctuation: UInt8 = 20, postfixNumeric: UInt8 = 21, prefixNumeric: UInt8 = 22
    static let complexContext: UInt8 = 24, breakSymbols: UInt8 = 27, closeParenthesis: UInt8 = 36, hebrewLetter: UInt8 = 38
    static let quotation: UInt8 = 23, glue: UInt8 = 12, nonstarter: UInt8 = 18, zeroWidthSpace: UInt8 = 28
    static let wordJoiner: UInt8 = 30, zeroWidthJoiner: UInt8 = 42, inseparable: UInt8 = 15

    /// Classes that never break before them (UAX #14 LB11–LB13, LB16–LB21 for the East Asian cases).
    static let keepsPrevious: Set<UInt8> = [
        closePunctuation, closeParenthesis, exclamation, infixNumeric, breakSymbols, glue, wordJoiner, nonstarter,
        combiningMark, zeroWidthJoiner, quotation, inseparable, breakAfter, hyphen,
    ]
    /// Classes that never break after them (UAX #14 LB11, LB12, LB14, LB30).
    static let keepsNext: Set<UInt8> = [openPunctuation, glue, wordJoiner, zeroWidthJoiner, quotation]

    /// Rule: for the class before a position, the classes before which word-break:
    /// break-all adds a break (Blink's table; other pairs keep the normal rules), as a bit per class
    /// in the row of the class before (ICU's classes are fewer than 64).
    static let breakAllBefore: [UInt64] = {
        func bits(_ classes: Set<UInt8>) -> UInt64 { classes.reduce(0) { $0 | 1 << $1 } }
        let letters: Set<UInt8> = [ambiguous, alphabetic, breakAfter, hyphen, numeric, hebrewLetter]
        let wordLike = letters.union([openPunctuation, prefixNumeric, complexContext])
        var table = [UInt64](repeating: 0, count: 64)
        for row in [ambiguous, alphabetic, breakAfter, numeric, complexContext, breakSymbols, hebrewLetter] { table[Int(row)] = bits(wordLike) }
        table[Int(closePunctuation)] = bits(letters.union([prefixNumeric]))
        table[Int(closeParenthesis)] = bits(letters.union([prefixNumeric, complexContext]))
        table[Int(exclamation)] = bits(letters.union([postfixNumeric, prefixNumeric]))
        table[Int(postfixNumeric)] = bits(letters.union([postfixNumeric, prefixNumeric]))
        table[Int(infixNumeric)] = bits(letters)
        table[Int(hyphen)] = bits([numeric])
        table[Int(prefixNumeric)] = bits([postfixNumeric])
        return table
    }()
}

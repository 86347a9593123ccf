import CHarfBuzzShim

/// Where a line may end, as Chromium's line breaker decides for text seen from a line start: ICU's
/// line breaker (UAX #14, `lb=normal`) with Blink's rules on top, in the order Blink applies them.
struct BreakOpportunities {
    let paragraph: ShapedParagraph
    let wordBreak: WordBreak
    /// The line start: ICU sees the text from here.
    private(set) var lineStart: Int
    /// ICU's boundaries of scalars[lineStart..<icuEnd] (index i - lineStart).
    private var boundaries: [UInt8] = []
    private var icuEnd: Int
    private let pairs: [UInt8]?
    private let breakAllRows: [UInt64]
    /// ICU also sees this many scalars past the last position asked about (its rules look ahead).
    static let icuLookahead = 64

    init(_ paragraph: ShapedParagraph, wordBreak: WordBreak, lineStart: Int) {
        self.paragraph = paragraph
        self.wordBreak = wordBreak
        self.lineStart = lineStart
        icuEnd = lineStart
        pairs = Self.pairTable
        breakAllRows = LineBreakClass.breakAllBefore
    }

    /// The same text seen from another line start (ICU's boundaries found again from there).
    mutating func startLine(at start: Int) {
        lineStart = start
        icuEnd = start
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

    /// ICU's boundary at `i`, from boundaries computed over the text from the line start to a bounded
    /// distance past the positions asked about.
    mutating func icuBoundary(_ i: Int) -> Bool {
        let count = paragraph.scalars.count
        if i + Self.icuLookahead >= icuEnd && icuEnd < count {
            let end = min(count, max(i + Self.icuLookahead * 2, lineStart + (icuEnd - lineStart) * 2))
            boundaries.removeAll(keepingCapacity: true)
            boundaries.append(contentsOf: repeatElement(0, count: end - lineStart))
            if paragraph.scalars.withUnsafeBufferPointer({ tfont_line_boundaries($0.baseAddress, lineStart, end, &boundaries) }) != 0 {
                // ICU failed (memory): the fast rules alone.
                return false
            }
            icuEnd = end
        }
        return boundaries[i - lineStart] != 0
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

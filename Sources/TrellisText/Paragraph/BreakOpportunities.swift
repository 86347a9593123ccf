import CHarfBuzzShim

/// Where a line may end, as Chromium's line breaker decides for text seen from a line start: ICU's
/// line breaker (UAX #14, `lb=normal`) with Blink's rules on top, in the order Blink applies them.
///
/// A class: the breaker asks it about every position of every line at every width, and a struct holding the
/// paragraph's arrays was copied (each array retained and released) on each of those calls. One request on one
/// thread uses it.
final class BreakOpportunities {
    private(set) var paragraph: ShapedParagraph
    private(set) var wordBreak: WordBreak
    /// `white-space: break-spaces`: a line may break after every space.
    private(set) var breakSpaces: Bool
    /// `hyphens: none` makes this false: no break after a soft hyphen.
    var softHyphens = true
    /// The line start: ICU sees the text from here.
    // Read on every position asked and written once per line, never overlapping: the dynamic exclusivity checks
    // cost more than the rules they guard.
    @exclusivity(unchecked) private(set) var lineStart: Int
    /// Where Blink's break iterator starts when not at the line start (nil: there): its score-based breaker lays a
    /// paragraph's first lines out with one line breaker, whose iterator starts at the paragraph's start. Set before
    /// `startLine`.
    var iteratorStart: Int?
    /// Where the iterator sees the text from, ICU and the rules that look back alike: `iteratorStart`, else the line
    /// start.
    @exclusivity(unchecked) private(set) var contextStart: Int
    /// ICU's boundaries of the paragraph, found once and remembered across line starts and widths.
    let boundaries: LineBoundaries
    /// ICU's boundaries seen from the line start (once `seenKnown`), asked for on the first position only ICU decides,
    /// and those of the last line start before it that asked (once `beforeKnown`). Not optionals: reading a view out
    /// of one copied it (its arrays retained and released) on every position asked.
    @exclusivity(unchecked) private var seen = LineBoundaries.View.none
    @exclusivity(unchecked) private var seenKnown = false
    @exclusivity(unchecked) private var before = LineBoundaries.View.none
    @exclusivity(unchecked) private var beforeKnown = false
    /// The furthest position the line is expected to ask about (where it stops fitting).
    @exclusivity(unchecked) private var reach = 0
    private let pairs: [UInt8]?
    private let breakAllRows: [UInt64]

    init(_ paragraph: ShapedParagraph, wordBreak: WordBreak, breakSpaces: Bool = false, lineStart: Int, boundaries: LineBoundaries) {
        self.paragraph = paragraph
        self.wordBreak = wordBreak
        self.breakSpaces = breakSpaces
        self.lineStart = lineStart
        contextStart = lineStart
        self.boundaries = boundaries
        pairs = Self.pairTable
        breakAllRows = LineBreakClass.breakAllBefore
    }

    /// The same scanner for another breaking, of the paragraph its `boundaries` now belong to (`ParagraphMemory` resets
    /// both), as `init` makes it: the breakings of a request's paragraphs at each width reuse one rather than
    /// allocating one each.
    func reset(_ paragraph: ShapedParagraph, wordBreak: WordBreak, breakSpaces: Bool, lineStart: Int) {
        self.paragraph = paragraph
        self.wordBreak = wordBreak
        self.breakSpaces = breakSpaces
        self.lineStart = lineStart
        contextStart = lineStart
        iteratorStart = nil
        softHyphens = true
        // The views are read only once known (left as they are: setting them anew retained and released their arrays).
        seenKnown = false
        beforeKnown = false
        reach = 0
    }

    /// The same text seen from another line start, whose line asks about positions up to `reach`.
    func startLine(at start: Int, reach: Int) {
        lineStart = start
        self.reach = reach
        let context = iteratorStart ?? start
        // One iterator for several lines: what it saw holds for each.
        if iteratorStart != nil && seenKnown && context == contextStart { return }
        contextStart = context
        if seenKnown {
            swap(&before, &seen)
            beforeKnown = true
        }
        seenKnown = false
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

    /// Blink's breakable spaces (space, tab, line feed): it breaks only after a run of them.
    static func isBreakableSpace(_ scalar: UInt32) -> Bool { scalar == 0x20 || scalar == 0x09 || scalar == 0x0A }

    /// The space separators other than U+0020 (Blink's `IsOtherSpaceSeparator`).
    static func isOtherSpaceSeparator(_ scalar: UInt32) -> Bool {
        scalar == 0x1680 || (0x2000...0x2006).contains(scalar) || (0x2008...0x200A).contains(scalar) || scalar == 0x205F
            || scalar == 0x3000
    }

    enum Fast { case noBreak, canBreak, unknown }

    /// Rule: Blink decides pairs of characters up to U+00FF from its table, `-` before a
    /// digit from the character before it, and leaves the rest to ICU.
    @inline(__always)
    func fast(_ i: Int) -> Fast {
        let scalars = paragraph.scalars
        let last = scalars[i - 1]
        let current = scalars[i]
        if last < 0x21 || current < 0x21 { return .noBreak }
        if last == 0x2D {
            if current <= 0x7F {
                if (0x30...0x39).contains(current) {
                    // `-` before a digit breaks only after a letter or digit (ABCD-1234), not as a minus sign.
                    guard i - 2 >= contextStart else { return .noBreak }
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

    /// Where a line may end in a text every rule above decides alike from any line start: each scalar printable ASCII
    /// (U+0020–U+007E) or Latin-1 (U+00A0–U+00FF) but the soft hyphen, no `-` before a scalar past U+007F, `word-break:
    /// normal` and spaces that hang (not `break-spaces`). There a position is an opportunity as `isOpportunity` finds
    /// it: never before a space, always after a run of them, else Blink's pair table, `-` before a digit only after a
    /// letter or digit. That rule looks back at the scalar before the `-`, which a line starting at the `-` does not
    /// see: such a line is not to be read from the result. ICU is never asked. Each opportunity (the text's end too)
    /// with its visible end from the text's start (`visibleEnd(0, end)`: its spaces before it left out); nil where the
    /// text has another scalar or Blink's table is missing.
    static func contextFree(_ scalars: UnsafeBufferPointer<UInt32>) -> [ShapedParagraph.KeptBreak]? {
        guard let pairs = pairTable, scalars.count > 1 else { return nil }
        let count = scalars.count
        @inline(__always) func isLatin(_ scalar: UInt32) -> Bool { scalar &- 0x20 < 0x5F || (scalar &- 0xA0 < 0x60 && scalar != 0xAD) }
        @inline(__always) func isASCIILetter(_ scalar: UInt32) -> Bool { (scalar | 0x20) &- 0x61 < 26 }
        guard isLatin(scalars[0]) else { return nil }
        return pairs.withUnsafeBufferPointer { table in
            // About one opportunity a word of English (the array grows past that where words are shorter or punctuation breaks).
            var found: [ShapedParagraph.KeptBreak] = []
            found.reserveCapacity(count / 5 + 2)
            // The end of the last scalar before i that is not a space: a line ending after spaces ends its visible text
            // there.
            var visible = scalars[0] == 0x20 ? 0 : 1
            var i = 1
            while i < count {
                let last = scalars[i - 1]
                let current = scalars[i]
                // Rule (Blink's ASCII pairs, `asciiBreak`): nothing breaks after an ASCII letter before another: the rest
                // of a word's letters are passed over (most of a text's scalars).
                if isASCIILetter(last) && isASCIILetter(current) {
                    i += 1
                    while i < count && isASCIILetter(scalars[i]) { i += 1 }
                    visible = i
                    continue
                }
                if current == 0x20 {
                    i += 1
                    continue
                }
                guard isLatin(current), last != 0x2D || current <= 0x7F else { return nil }
                let opportunity: Bool
                if last == 0x20 {
                    opportunity = true
                } else if last == 0x2D && current &- 0x30 < 10 {
                    let before = i >= 2 ? scalars[i - 2] : 0
                    opportunity = before &- 0x30 < 10 || before &- 0x41 < 26 || before &- 0x61 < 26
                } else {
                    opportunity = table[Int(last &- 0x21) * pairCount + Int(current &- 0x21)] != 0
                }
                if opportunity { found.append(ShapedParagraph.KeptBreak(end: Int32(truncatingIfNeeded: i), visible: Int32(truncatingIfNeeded: visible))) }
                i += 1
                visible = i
            }
            found.append(ShapedParagraph.KeptBreak(end: Int32(truncatingIfNeeded: count), visible: Int32(truncatingIfNeeded: visible)))
            return found
        }
    }

    /// Whether a line may end before scalar `i` (lineStart < i < count); the paragraph's end always may.
    func isOpportunity(_ i: Int) -> Bool {
        let scalars = paragraph.scalars
        let current = scalars[i]
        let last = scalars[i - 1]
        // Rule (Blink's soft hyphen switch): with `hyphens: none`, never after a soft hyphen.
        if !softHyphens && last == 0xAD { return false }
        if breakSpaces {
            // Rule for `break-spaces`: always after a space or another space separator, never before a space.
            if Self.isBreakableSpace(last) || Self.isOtherSpaceSeparator(last) { return true }
        } else {
            // Rule: never before a space; always after a run of them.
            if Self.isBreakableSpace(current) { return false }
            if Self.isBreakableSpace(last) { return true }
        }
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
        // Rule: a boundary of ICU's line breaker over the text from the iterator's start.
        guard i > contextStart else { return false }
        return newerBreakData(i, icu: icuBoundary(i) || eastAsianQuotation(i))
    }

    /// Rule: the break data of Unicode 16 (in the ICU inside Chromium, not in Debian's ICU 72), over ICU 72's answer
    /// `icu` for the position before scalar `i`:
    /// - LB20a: no break after a hyphen (HY or HH) at the line's start or after a space, a zero-width space or a
    ///   no-break space, before a letter;
    /// - LB21a: after a Hebrew letter and a hyphen (HY or HH), a break before another Hebrew letter; after a Hebrew
    ///   letter and any other break-after character (BA), a break as after any;
    /// - U+FE10, U+FE13 and U+FE14 (vertical comma, colon and semicolon) break after, as BA.
    /// HH, a class of its own since Unicode 16, is the hyphens U+2010, U+2012, U+2013 and the Hebrew maqaf U+05BE.
    @inline(__always)
    func newerBreakData(_ i: Int, icu: Bool) -> Bool {
        let scalars = paragraph.scalars
        let classes = paragraph.lineBreakClasses
        let last = scalars[i - 1]
        let hyphen = classes[i - 1] == LineBreakClass.hyphen || Self.isHH(last)
        if icu {
            if hyphen && LineBreakClass.letters.contains(classes[i])
                && (i - 1 == contextStart || LineBreakClass.beforeWordStart.contains(classes[i - 2]))
            {
                return false
            }
            return true
        }
        if last == 0xFE10 || last == 0xFE13 || last == 0xFE14 { return !LineBreakClass.keepsPrevious.contains(classes[i]) }
        guard hyphen || classes[i - 1] == LineBreakClass.breakAfter else { return false }
        // The Hebrew letter before it, past its combining marks (LB9; a cluster has at most
        // `TextMeasurer.maxClusterScalars` scalars, so at most that many are passed).
        var base = i - 2
        while base >= contextStart && base > i - 2 - TextMeasurer.maxClusterScalars && classes[base] == LineBreakClass.combiningMark {
            base -= 1
        }
        guard base >= contextStart, classes[base] == LineBreakClass.hebrewLetter else { return false }
        if hyphen { return classes[i] == LineBreakClass.hebrewLetter }
        return !LineBreakClass.keepsPrevious.contains(classes[i])
    }

    /// UAX #14's HH (unambiguous hyphens) of Unicode 16, as Chromium's ICU has them.
    static func isHH(_ scalar: UInt32) -> Bool {
        scalar == 0x05BE || scalar == 0x2010 || scalar == 0x2012 || scalar == 0x2013
    }

    /// Rule: quotation marks between East Asian characters (UAX #14 LB19a of Unicode 15.1, which the
    /// ICU inside Chromium has and Debian's ICU 72 lacks): an opening quotation mark may start a line
    /// after an East Asian character when one follows it, and a line may end after a closing one
    /// between East Asian characters, unless the next character forbids a break before it.
    @inline(__always)
    func eastAsianQuotation(_ i: Int) -> Bool {
        let classes = paragraph.lineBreakClasses
        let bits = paragraph.characterBits
        let eastAsian = UInt8(TFONT_EAST_ASIAN)
        let count = paragraph.count
        if classes[i] == LineBreakClass.quotation, bits[i] & UInt8(TFONT_INITIAL_PUNCTUATION) != 0 {
            return bits[i - 1] & eastAsian != 0 && !LineBreakClass.keepsNext.contains(classes[i - 1])
                && i + 1 < count && bits[i + 1] & eastAsian != 0
        }
        if classes[i - 1] == LineBreakClass.quotation, bits[i - 1] & UInt8(TFONT_FINAL_PUNCTUATION) != 0, i - 2 >= contextStart {
            return bits[i - 2] & eastAsian != 0 && bits[i] & eastAsian != 0
                && !LineBreakClass.keepsPrevious.contains(classes[i])
        }
        return false
    }

    /// Rule for `wordBreak: break-all` (Blink's table over UAX #14 classes): more breaks between letters, digits and
    /// some punctuation; `+` counts as a letter. The class before is the previous character's, as
    /// Blink finds it looking back from a candidate: none after a combining mark. HH (Chromium's ICU's class of the
    /// maqaf and the hyphens U+2010, U+2012, U+2013, newer than the table) is in no row or column of it.
    func breakAll(_ i: Int) -> Bool {
        if Self.isHH(paragraph.scalars[i - 1]) || Self.isHH(paragraph.scalars[i]) { return false }
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
            guard before - 1 >= contextStart else { return false }
            before -= 1
        }
        return bits[before] & letterOrNumber != 0 && paragraph.lineBreakClasses[before] != LineBreakClass.complexContext
            && bits[i] & letterOrNumber != 0 && paragraph.lineBreakClasses[i] != LineBreakClass.complexContext
    }

    /// ICU's boundary at `i` for the text seen from the iterator's start.
    func icuBoundary(_ i: Int) -> Bool {
        if !seenKnown {
            guard let view = boundaries.view(from: contextStart, after: beforeKnown ? before : nil, reach: max(i, reach)) else { return false }
            seen = view
            seenKnown = true
        }
        if let found = seen.isBoundary(i) { return found }
        guard let extended = boundaries.extended(seen, to: max(i, reach)) else {
            seenKnown = false
            return false
        }
        seen = extended
        return seen.isBoundary(i) ?? false
    }
}

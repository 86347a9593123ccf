import CHarfBuzzShim

/// UAX #14 line-break classes as ICU numbers them (ULineBreak).
enum LineBreakClass {
    static let ambiguous: UInt8 = 1, alphabetic: UInt8 = 2, breakAfter: UInt8 = 4, closePunctuation: UInt8 = 8
    static let combiningMark: UInt8 = 9, exclamation: UInt8 = 11, hyphen: UInt8 = 13, infixNumeric: UInt8 = 16
    static let numeric: UInt8 = 19, openPunctuation: UInt8 = 20, postfixNumeric: UInt8 = 21, prefixNumeric: UInt8 = 22
    static let complexContext: UInt8 = 24, breakSymbols: UInt8 = 27, closeParenthesis: UInt8 = 36, hebrewLetter: UInt8 = 38
    static let quotation: UInt8 = 23, glue: UInt8 = 12, nonstarter: UInt8 = 18, zeroWidthSpace: UInt8 = 28
    static let wordJoiner: UInt8 = 30, zeroWidthJoiner: UInt8 = 42, inseparable: UInt8 = 15
    static let unknown: UInt8 = 0, mandatoryBreak: UInt8 = 6, contingentBreak: UInt8 = 7, carriageReturn: UInt8 = 10
    static let lineFeed: UInt8 = 17, space: UInt8 = 26, nextLine: UInt8 = 29

    /// Classes that never break before them (UAX #14 LB11–LB13, LB16–LB21 for the East Asian cases).
    static let keepsPrevious: Set<UInt8> = [
        closePunctuation, closeParenthesis, exclamation, infixNumeric, breakSymbols, glue, wordJoiner, nonstarter,
        combiningMark, zeroWidthJoiner, quotation, inseparable, breakAfter, hyphen,
    ]
    /// Letters as UAX #14 LB20a means them (AL, HL, and what LB1 resolves to AL: AI, SA, XX).
    static let letters: Set<UInt8> = [alphabetic, hebrewLetter, ambiguous, complexContext, unknown]
    /// What a word-initial hyphen follows (UAX #14 LB20a: SP, ZW, GL, CB and the hard breaks).
    static let beforeWordStart: Set<UInt8> = [space, zeroWidthSpace, glue, contingentBreak, mandatoryBreak, carriageReturn, lineFeed, nextLine]
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

/// CSS `white-space` as paragraph layout supports it.
public enum WhiteSpace: Sendable, CaseIterable {
    /// Spaces collapse (a run becomes one, none at the paragraph's ends); lines wrap.
    case normal
    /// Spaces are kept; lines wrap; spaces at a line's end hang.
    case preWrap
    /// Spaces collapse; the paragraph is one line.
    case nowrap
    /// Spaces are kept and counted; the paragraph is one line (as a label measured alone).
    case pre

    /// Runs of spaces collapse to one and none are kept at the paragraph's ends.
    var collapsesSpaces: Bool { self == .normal || self == .nowrap }
    /// Lines break at break opportunities.
    var wraps: Bool { self == .normal || self == .preWrap }
}

/// CSS `word-break`.
public enum WordBreak: Sendable, CaseIterable {
    case normal
    /// Also break between letters and digits of most scripts (Blink's break-all table over UAX #14 classes).
    case breakAll
    /// No break between letters or digits (CJK words stay whole), except in scripts broken by dictionary.
    case keepAll
}

/// CSS `overflow-wrap`.
public enum OverflowWrap: Sendable, CaseIterable {
    case normal
    /// A word that does not fit on a line alone breaks between grapheme clusters; so does min-content.
    case anywhere
    /// As `anywhere`, but min-content ignores those breaks.
    case breakWord
}

/// CSS `text-overflow` (for an overflowing line and for the last line of a clamp).
public enum TextOverflow: Sendable, CaseIterable {
    case clip
    /// U+2026 drawn after the longest prefix that fits with it.
    case ellipsis
}

/// How a paragraph is laid out: CSS's initial values by default.
public struct ParagraphStyle: Sendable, Equatable {
    public var whiteSpace: WhiteSpace
    public var wordBreak: WordBreak
    public var overflowWrap: OverflowWrap
    /// `-webkit-line-clamp` / `line-clamp`: at most this many lines are shown (nil: all).
    public var maxLines: Int?
    public var textOverflow: TextOverflow
    /// `line-height` in px (nil: `normal`).
    public var lineHeight: Double?

    public init(
        whiteSpace: WhiteSpace = .normal, wordBreak: WordBreak = .normal, overflowWrap: OverflowWrap = .normal,
        maxLines: Int? = nil, textOverflow: TextOverflow = .clip, lineHeight: Double? = nil
    ) {
        self.whiteSpace = whiteSpace
        self.wordBreak = wordBreak
        self.overflowWrap = overflowWrap
        self.maxLines = maxLines
        self.textOverflow = textOverflow
        self.lineHeight = lineHeight
    }
}

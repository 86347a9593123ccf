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
    /// `tab-size`: where kept tabs advance to.
    public var tabSize: TabSize
    /// `text-align` and `text-align-last`: each line's offset in its box.
    public var textAlign: TextAlign = .start
    public var textAlignLast: TextAlignLast = .auto
    /// `text-indent`: the first line's offset from the start edge, and the room it loses.
    public var textIndent: TextIndent = .none
    /// `hyphens`: whether soft hyphens are break opportunities that show a hyphen.
    public var hyphens: Hyphens = .manual
    /// `text-wrap-style`: greedy breaks, or Blink's balanced or pretty ones.
    public var textWrap: TextWrap = .wrap
    /// How far the lines' start edge lies from the block's, in px: tab stops are measured from the block's start edge
    /// (0 but while balance bisects a right-to-left paragraph).
    var tabStopShift: Float = 0
    /// The lines Blink's score-based breaker lays out with one line breaker, whose break iterator starts at their
    /// paragraph's start rather than at each line's: at most `lines` of a paragraph, of the first only or of every one
    /// (none by default).
    var scoredLines = ScoredLines.none

    struct ScoredLines: Equatable, Sendable {
        var lines: Int
        var everyParagraph: Bool
        /// Whether the block's first paragraph has them (`break-spaces` turns Blink's scorer off there).
        var firstParagraph: Bool
        static let none = ScoredLines(lines: 0, everyParagraph: false, firstParagraph: false)

        /// Whether the line `index` of the paragraph starting at `paragraphStart` is one of them.
        func contains(line index: Int, paragraphStart: Int) -> Bool {
            index < lines && (paragraphStart == 0 ? firstParagraph : everyParagraph)
        }
    }

    public init(
        whiteSpace: WhiteSpace = .normal, wordBreak: WordBreak = .normal, overflowWrap: OverflowWrap = .normal,
        maxLines: Int? = nil, textOverflow: TextOverflow = .clip, lineHeight: Double? = nil, tabSize: TabSize = .initial
    ) {
        self.whiteSpace = whiteSpace
        self.wordBreak = wordBreak
        self.overflowWrap = overflowWrap
        self.maxLines = maxLines
        self.textOverflow = textOverflow
        self.lineHeight = lineHeight
        self.tabSize = tabSize
    }
}

extension ParagraphStyle {
    /// Lines break alike in both styles (the clamp, the ellipsis and the line height do not change the breaks).
    func breaksAlike(_ other: ParagraphStyle) -> Bool {
        whiteSpace == other.whiteSpace && wordBreak == other.wordBreak && overflowWrap == other.overflowWrap
            && tabSize == other.tabSize && textIndent == other.textIndent
            && hyphens == other.hyphens && tabStopShift == other.tabStopShift && scoredLines == other.scoredLines
    }
}

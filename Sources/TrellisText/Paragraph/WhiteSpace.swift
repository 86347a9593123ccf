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

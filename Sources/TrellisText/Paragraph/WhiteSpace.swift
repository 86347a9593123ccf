/// CSS `white-space` (CSS Text 3: how white space collapses, whether segment breaks are kept, whether lines wrap).
public enum WhiteSpace: Sendable, CaseIterable {
    /// Spaces, tabs and line feeds collapse (a run becomes one space, none at the paragraph's ends); lines wrap.
    case normal
    /// Everything is kept; line feeds are forced breaks; lines wrap; spaces and tabs at a line's end hang.
    case preWrap
    /// As `normal`, but lines do not wrap.
    case nowrap
    /// Everything is kept and counted; line feeds are forced breaks; lines do not wrap.
    case pre
    /// Spaces and tabs collapse as in `normal`, but line feeds are forced breaks; lines wrap.
    case preLine
    /// As `pre-wrap`, but spaces never hang: they take room, and a line may break after any of them.
    case breakSpaces

    /// Runs of spaces and tabs collapse to one space and none are kept at the paragraph's ends or beside a line feed.
    var collapsesSpaces: Bool { self == .normal || self == .nowrap || self == .preLine }
    /// Line feeds are kept as forced breaks (where not, they collapse like spaces).
    var preservesBreaks: Bool { self != .normal && self != .nowrap }
    /// Lines break at break opportunities.
    var wraps: Bool { self == .normal || self == .preWrap || self == .preLine || self == .breakSpaces }
    /// Spaces (and preserved tabs) at a line's end hang: never counted in its width or when it is fitted (a collapsed
    /// space is removed there; `pre` counts them, `break-spaces` wraps them).
    var spacesHang: Bool { self != .pre && self != .breakSpaces }
}

/// CSS `hyphens` (`auto` is not offered: browsers disagree on it).
public enum Hyphens: Sendable, CaseIterable {
    /// A line may break at a soft hyphen (U+00AD), and then shows a hyphen.
    case manual
    /// Soft hyphens are no break opportunities.
    case none
}

/// CSS `text-overflow` (for an overflowing line and for the last line of a clamp).
public enum TextOverflow: Sendable, CaseIterable {
    case clip
    /// U+2026 drawn after the longest prefix that fits with it.
    case ellipsis
}

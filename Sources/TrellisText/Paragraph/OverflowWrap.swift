/// CSS `overflow-wrap`.
public enum OverflowWrap: Sendable, CaseIterable {
    case normal
    /// A word that does not fit on a line alone breaks between grapheme clusters; so does min-content.
    case anywhere
    /// As `anywhere`, but min-content ignores those breaks.
    case breakWord
}

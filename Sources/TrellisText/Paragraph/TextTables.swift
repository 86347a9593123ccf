/// The process's constant tables that every paragraph's line breaking reads, built on first use.
public enum TextTables {
    /// Builds them now (Blink's pair table read off ICU for U+0021–U+00FF, about 65 million instructions, and the
    /// break-all rows), so that the executable pays for them before it listens rather than its first text request.
    public static func build() {
        _ = BreakOpportunities.pairTable
        _ = LineBreakClass.breakAllBefore
    }
}

/// A row of a list: where its paragraphs end in the list's paragraphs (they start where the previous row's
/// end) and which of the list's chromes it has.
public struct ListLayoutRow: Sendable, Equatable {
    public var paragraphEnd: Int32
    /// An index into `ListLayoutInput.chromes`.
    public var chrome: Int32

    public init(paragraphEnd: Int32, chrome: Int32 = 0) {
        self.paragraphEnd = paragraphEnd
        self.chrome = chrome
    }
}

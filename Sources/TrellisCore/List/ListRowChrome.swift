/// What a row adds around its paragraphs, as a `box-sizing: border-box` row: its padding, the height of
/// what is drawn below the text (reactions, an avatar row) and its minimum height. Each length is held
/// as Blink holds it (`ListLength.layoutUnit`).
public struct ListRowChrome: Sendable, Equatable {
    public let top: Double
    public let bottom: Double
    public let leading: Double
    public let trailing: Double
    public let extraHeight: Double
    /// The row's least height, padding included.
    public let minHeight: Double

    /// Lengths in px, each at least 0 and finite (the API's reader checks them).
    public init(top: Double = 0, bottom: Double = 0, leading: Double = 0, trailing: Double = 0, extraHeight: Double = 0, minHeight: Double = 0) {
        self.top = ListLength.layoutUnit(top)
        self.bottom = ListLength.layoutUnit(bottom)
        self.leading = ListLength.layoutUnit(leading)
        self.trailing = ListLength.layoutUnit(trailing)
        self.extraHeight = ListLength.layoutUnit(extraHeight)
        self.minHeight = ListLength.layoutUnit(minHeight)
    }

    /// No padding, nothing below the text, no minimum.
    public static let none = ListRowChrome()

    /// Rule: the text's width is the row's width less its leading and trailing padding (0 when they take it all).
    public func textWidth(in width: Double) -> Double {
        max(0, width - leading - trailing)
    }
}

/// CSS `text-align`: where each line sits in its box.
public enum TextAlign: Sendable, CaseIterable {
    case start, end, left, right, center, justify
}

/// CSS `text-align-last`: the alignment of the paragraph's last line and of each line before a forced break
/// (`auto`: as `text-align`).
public enum TextAlignLast: Sendable, CaseIterable {
    case auto, start, end, left, right, center, justify
}

/// CSS `text-indent`: how far the first line starts from the box's start edge (negative: before it).
public enum TextIndent: Sendable, Equatable {
    /// A length in px.
    case length(Double)
    /// A percentage of the box's width.
    case percentage(Double)

    public static let none = TextIndent.length(0)

    /// Rule: the indent in 1/65536 px in a box `width` px wide, a LayoutUnit as Blink makes it (a length rounded to
    /// 1/64 px, a percentage of the width cut to 1/64 px).
    func units(width: Double) -> Int64 {
        let px: Double
        switch self {
        case .length(let length): px = (Double(Float(length)) * 64).rounded(.toNearestOrAwayFromZero) / 64
        case .percentage(let percent): px = (Double(Float(width) * Float(percent) / 100) * 64).rounded(.towardZero) / 64
        }
        return Int64(max(min(px, 1e9), -1e9) * 65536)
    }
}

import TrellisCore

/// Labels to measure in one font.
public struct TextMeasureInput: Sendable {
    public var font: TextFont
    public var texts: [String]

    public init(font: TextFont, texts: [String]) {
        self.font = font
        self.texts = texts
    }
}

/// Each label's width in CSS px (or why it cannot be measured), in order, and the font's line height.
public struct TextMeasureOutput: Sendable {
    public var widths: [Result<Double, TextRefusal>]
    public var lineHeight: Double
}

/// The text feature's measuring entry point: each label as `TextMeasurer` measures it.
public enum TextMeasure {
    /// A step per scalar looked up or shaped on `meter`; once it says stop, the labels left are not measured
    /// (fewer widths than texts). Widths measured before are taken from and added to `cache`.
    public static func compute(_ input: TextMeasureInput, cache: MeasureCache?, meter: inout WorkMeter) -> TextMeasureOutput {
        let measurer = TextMeasurer(font: input.font, cache: cache)
        var widths: [Result<Double, TextRefusal>] = []
        widths.reserveCapacity(input.texts.count)
        for text in input.texts where !meter.isStopped {
            widths.append(measurer.width(of: text, meter: &meter))
        }
        return TextMeasureOutput(widths: widths, lineHeight: input.font.lineMetrics.lineHeight)
    }
}

import TrellisCore

/// Paragraphs to lay out in one font and style, each at every width.
public struct TextLayoutInput: Sendable {
    public var font: TextFont
    public var texts: [String]
    public var widths: [Double]
    public var style: ParagraphStyle
    /// Also each text's min-content and max-content widths.
    public var contentWidths: Bool

    public init(font: TextFont, texts: [String], widths: [Double], style: ParagraphStyle, contentWidths: Bool) {
        self.font = font
        self.texts = texts
        self.widths = widths
        self.style = style
        self.contentWidths = contentWidths
    }
}

/// One text laid out: at each width in order, and its content widths when asked for.
public struct TextLayoutOutput: Sendable {
    public var layouts: [ParagraphLayout]
    public var contentWidths: ContentWidths?
}

/// The text feature's paragraph entry point: each text shaped once (`ParagraphShaper`) and laid out at every width.
public enum TextLayout {
    /// Hands each text's output (or why it cannot be laid out) to `each` as soon as it is made, in order, so that
    /// an answer is written as it goes; `each` returns false to stop. Rule: a text that cannot be laid out is found
    /// before any text is laid out: every text after the first is checked as shaping checks it (its characters, its
    /// grapheme clusters' lengths, a face for each cluster) before the first is shaped (shaping the first checks it
    /// before anything is laid out), and when one is refused only the refusals are handed on, no text shaped or laid
    /// out. A text that fails while it is shaped (memory ran out) ends the work: the texts after it passed their checks.
    /// A step per scalar checked or shaped and per scalar laid out at each width (and for the content widths) on
    /// `meter`, counted before the text is checked or shaped, and a step per scalar ICU's line breaker ran over,
    /// counted once the text is laid out.
    public static func compute(
        _ input: TextLayoutInput, meter: inout WorkMeter, each: (Int, Result<TextLayoutOutput, TextRefusal>) -> Bool
    ) {
        let shaper = ParagraphShaper(font: input.font)
        let whiteSpace = input.style.whiteSpace
        var refusals: [(index: Int, refusal: TextRefusal)] = []
        for index in input.texts.indices.dropFirst() {
            let text = input.texts[index]
            guard meter.advance(text.scalarCount) else { return }
            if let refusal = shaper.refusal(of: text, whiteSpace: whiteSpace) { refusals.append((index, refusal)) }
        }
        if !refusals.isEmpty {
            if let first = input.texts.first {
                guard meter.advance(first.scalarCount) else { return }
                if let refusal = shaper.refusal(of: first, whiteSpace: whiteSpace), !each(0, .failure(refusal)) { return }
            }
            for (index, refusal) in refusals {
                guard each(index, .failure(refusal)) else { return }
            }
            return
        }
        let layouts = input.widths.count + (input.contentWidths ? 1 : 0)
        for (index, text) in input.texts.enumerated() {
            // (The first text's step per scalar shaped is counted here, the others' with their checks.)
            guard meter.advance(text.scalarCount * (layouts + (index == 0 ? 1 : 0))) else { return }
            let breaking = shaper.lineBreakWork
            switch shaper.shape(text, whiteSpace: whiteSpace) {
            case .success(let paragraph):
                let result = layOut(paragraph, input, shaper)
                guard meter.advance(shaper.lineBreakWork - breaking), each(index, result) else { return }
            case .failure(let refusal):
                _ = each(index, .failure(refusal))
                return
            }
        }
    }

    private static func layOut(
        _ paragraph: ShapedParagraph, _ input: TextLayoutInput, _ shaper: ParagraphShaper
    ) -> Result<TextLayoutOutput, TextRefusal> {
        var layouts: [ParagraphLayout] = []
        layouts.reserveCapacity(input.widths.count)
        let memory = ParagraphMemory(paragraph)
        for (k, width) in input.widths.enumerated() {
            // A width asked for again is the same layout.
            if let earlier = input.widths[..<k].firstIndex(of: width) {
                layouts.append(layouts[earlier])
                continue
            }
            guard let layout = shaper.layout(paragraph, width: width, style: input.style, memory: memory) else {
                return .failure(.outOfMemory)
            }
            layouts.append(layout)
        }
        var contentWidths: ContentWidths?
        if input.contentWidths {
            guard let widths = shaper.contentWidths(paragraph, style: input.style, memory: memory) else { return .failure(.outOfMemory) }
            contentWidths = widths
        }
        return .success(TextLayoutOutput(layouts: layouts, contentWidths: contentWidths))
    }
}

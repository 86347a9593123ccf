import TrellisCore
import TrellisJSON
import TrellisText

/// Rule "labels": flow items (and the chip) given as text, measured in the request's `font` with
/// `labelPadding`: width = text width + leading + trailing, height = line height + top + bottom.
struct FlowLabels {
    struct Text {
        /// The item's index; -1 for the chip.
        var index: Int
        var value: JSONValue
        var text: String
        /// Rule "maxWidth": the item's outer width limit (padding included), when given.
        var maxWidth: Double? = nil
        /// Rule "maxWidth": lines shown in a narrowed item (1: one line cut with an ellipsis).
        var maxLines = 1
    }

    struct Padding {
        var top = 0.0, leading = 0.0, bottom = 0.0, trailing = 0.0
    }

    var texts: [Text]
    var chip: Text?
    var font: TextFont
    var padding: Padding

    /// The chip's `{n}`, replaced by the hidden count before measuring.
    static let countPlaceholder = "{n}"

    /// `font` (required with any text) and `labelPadding`; nil after recording a problem or without a font.
    static func read(
        _ body: JSONValue, texts: [Text], chip: Text?, _ fonts: TextFonts, _ problems: inout Problems
    ) throws(ProblemDetails) -> FlowLabels? {
        let collection = try fonts.loaded()
        var font: TextFont?
        if let value = body.optional("font") {
            font = TextFontRequest.read(value, collection, &problems)
        } else if !texts.isEmpty || chip != nil {
            problems.add(at: body, member: "font", "is required when an item or the overflowIndicator has text")
        }
        var padding = Padding()
        if let value = body.optional("labelPadding"), value.expectObject(&problems) {
            padding.top = value.optional("top")?.number(&problems, FlowLimits.lengths) ?? 0
            padding.leading = value.optional("leading")?.number(&problems, FlowLimits.lengths) ?? 0
            padding.bottom = value.optional("bottom")?.number(&problems, FlowLimits.lengths) ?? 0
            padding.trailing = value.optional("trailing")?.number(&problems, FlowLimits.lengths) ?? 0
        }
        guard let font else { return nil }
        return FlowLabels(texts: texts, chip: chip, font: font, padding: padding)
    }

    /// The size of a label's item: measured width and line height plus the padding.
    func size(ofWidth width: Double) -> Size {
        Size(width: width + padding.leading + padding.trailing, height: font.lineMetrics.lineHeight + padding.top + padding.bottom)
    }

    /// The chip's label for a hidden count.
    static func label(_ template: String, count: Int) -> String {
        template.replacing(countPlaceholder, with: String(count))
    }

    /// Rule "maxWidth": a label wider than its item's `maxWidth` (less the padding) is laid out at that
    /// width as a paragraph: on one line cut with an ellipsis (`maxLines` 1), or wrapped (breaking
    /// words where they must) and clamped to `maxLines` with an ellipsis; its item is `maxWidth` wide
    /// and as tall as its lines (each the font's line height). The item's paragraph, for the answer.
    func narrowed(_ label: Text, maxWidth: Double, shaper: ParagraphShaper) -> Result<(Size, ParagraphLayout), TextRefusal> {
        let lineHeight = font.lineMetrics.lineHeight
        var style = ParagraphStyle(whiteSpace: .pre, textOverflow: .ellipsis, lineHeight: lineHeight)
        if label.maxLines > 1 {
            style.whiteSpace = .preWrap
            style.overflowWrap = .anywhere
            style.maxLines = label.maxLines
        }
        let paragraph: ShapedParagraph
        switch shaper.shape(label.text, whiteSpace: style.whiteSpace) {
        case .success(let shaped): paragraph = shaped
        case .failure(let refusal): return .failure(refusal)
        }
        let available = max(0, maxWidth - padding.leading - padding.trailing)
        guard let oneLine = shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: ParagraphStyle(whiteSpace: .pre, lineHeight: lineHeight))
        else { return .failure(.outOfMemory) }
        let fits = oneLine.width <= available
        guard let layout = fits ? oneLine : shaper.layout(paragraph, width: available, style: style) else { return .failure(.outOfMemory) }
        let width = fits ? oneLine.width + padding.leading + padding.trailing : maxWidth
        return .success((Size(width: width, height: max(layout.height, lineHeight) + padding.top + padding.bottom), layout))
    }

    /// Measures every item label into `request` and lays out, the chip's label by the fixed point of its
    /// count; records a problem at each text that cannot be measured (then the result is not used).
    /// Items with a `maxWidth` get their paragraph in `paragraphs` (by item index).
    func layout(
        _ request: FlowRequest, _ problems: inout Problems, cache: MeasureCache, paragraphs: inout [Int: ParagraphLayout]
    ) -> FlowResult? {
        let measurer = TextMeasurer(font: font, cache: cache)
        var shaper: ParagraphShaper?
        var request = request
        for label in texts {
            if let maxWidth = label.maxWidth {
                let narrowing = shaper ?? ParagraphShaper(font: font)
                shaper = narrowing
                switch narrowed(label, maxWidth: maxWidth, shaper: narrowing) {
                case .success(let (size, paragraph)):
                    request.items[label.index].width = size.width
                    request.items[label.index].height = size.height
                    paragraphs[label.index] = paragraph
                case .failure(let refusal):
                    TextFontRequest.record(refusal, at: label.value, &problems)
                }
                continue
            }
            switch measurer.width(of: label.text) {
            case .success(let width):
                let size = size(ofWidth: width)
                request.items[label.index].width = size.width
                request.items[label.index].height = size.height
            case .failure(let refusal):
                TextFontRequest.record(refusal, at: label.value, &problems)
            }
        }
        guard let chip else { return problems.isEmpty ? FlowLayout.compute(request) : nil }
        // The chip's template is checked with every digit in it before any count is measured.
        if case .failure(let refusal) = measurer.width(of: Self.label(chip.text, count: 1_234_567_890)) {
            TextFontRequest.record(refusal, at: chip.value, &problems)
        }
        guard problems.isEmpty else { return nil }
        var failed = false
        let result = FlowLayout.compute(request) { count in
            switch measurer.width(of: Self.label(chip.text, count: count)) {
            case .success(let width): return size(ofWidth: width)
            case .failure:
                failed = true
                return Size(width: 0, height: 0)
            }
        }
        if failed {
            problems.add(at: chip.value, "could not be measured: the server ran out of memory")
            return nil
        }
        return result
    }
}

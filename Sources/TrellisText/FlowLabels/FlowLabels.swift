import TrellisCore

/// A flow whose items (and chip) may be given as text: each text measured or laid out in the font, then the flow
/// laid out by `FlowLayout.compute`, the chip's label by the fixed point of its count. `compute` reads as its steps.
public enum FlowLabels {
    /// Lays out `input`, reading each text through `text` when it is measured; the answer, or every text that
    /// cannot be measured (`.unmeasurable`: the items' in order, then the chip's). A step per scalar measured or
    /// shaped on `meter`, and per scalar ICU's line breaker ran over; `.stopped` once it says stop. Widths measured
    /// before are taken from and added to `cache`.
    public static func compute(
        _ input: FlowLabelsInput, text: (FlowLabelText) -> String, cache: MeasureCache?, meter: inout WorkMeter
    ) -> Result<FlowLabelsOutput, FlowLabelsRefusal> {
        let measurer = TextMeasurer(font: input.font, cache: cache)
        var refused: [FlowLabelTextRefusal] = []
        var paragraphs: [Int: ParagraphLayout] = [:]
        let items = measureItems(input, text: text, measurer, paragraphs: &paragraphs, refused: &refused, &meter)
        guard !meter.isStopped else { return .failure(.stopped) }
        guard case .text(let chip) = input.overflowIndicator else {
            guard refused.isEmpty else { return .failure(.unmeasurable(refused)) }
            return .success(FlowLabelsOutput(layout: FlowLayout.compute(input.layout(items)), paragraphs: paragraphs))
        }
        let template = text(chip)
        if let refusal = checkChip(template, measurer, &meter) {
            refused.append(FlowLabelTextRefusal(text: chip, refusal: refusal))
        }
        guard !meter.isStopped else { return .failure(.stopped) }
        guard refused.isEmpty else { return .failure(.unmeasurable(refused)) }
        return layoutWithChip(input.layout(items), template: template, chip, input, measurer, &meter)
            .map { FlowLabelsOutput(layout: $0, paragraphs: paragraphs) }
    }

    /// The chip's `{n}`, replaced by the hidden count before measuring.
    public static let countPlaceholder = "{n}"

    /// The chip's label for a hidden count.
    public static func label(_ template: String, count: Int) -> String {
        template.replacing(countPlaceholder, with: String(count))
    }

    /// Rule: flow items given as text are measured in the font with the padding: width = text width + leading +
    /// trailing, height = line height + top + bottom (narrowed ones: see `narrowed`). Every item's size, in order;
    /// each text that cannot be measured goes to `refused` (its item is then 0 × 0, and the sizes are not used).
    /// Stops when the meter says stop.
    static func measureItems(
        _ input: FlowLabelsInput, text: (FlowLabelText) -> String, _ measurer: TextMeasurer,
        paragraphs: inout [Int: ParagraphLayout], refused: inout [FlowLabelTextRefusal], _ meter: inout WorkMeter
    ) -> [FlowItem] {
        var items: [FlowItem] = []
        items.reserveCapacity(input.items.count)
        var shaper: ParagraphShaper?
        for (index, item) in input.items.enumerated() {
            let label: FlowLabelText, narrowing: FlowLabelNarrowing?, breakBefore: Bool
            switch item {
            case .size(let sized):
                items.append(sized)
                continue
            case .text(let text, let narrowed, let breaks):
                (label, narrowing, breakBefore) = (text, narrowed, breaks)
            }
            guard !meter.isStopped else { break }
            var size = Size(width: 0, height: 0)
            if let narrowing {
                let paragraphShaper = shaper ?? ParagraphShaper(font: input.font)
                shaper = paragraphShaper
                let string = text(label)
                guard meter.advance(2 * string.unicodeScalars.count) else { break }
                let breaking = paragraphShaper.lineBreakWork
                let result = narrowed(string, narrowing, input, shaper: paragraphShaper)
                guard meter.advance(paragraphShaper.lineBreakWork - breaking) else { break }
                switch result {
                case .success(let (narrowedSize, paragraph)):
                    size = narrowedSize
                    paragraphs[index] = paragraph
                case .failure(let refusal):
                    refused.append(FlowLabelTextRefusal(text: label, refusal: refusal))
                }
            } else {
                switch measurer.width(of: text(label), meter: &meter) {
                case .success(let width): size = Self.size(ofWidth: width, input)
                case .failure(let refusal): refused.append(FlowLabelTextRefusal(text: label, refusal: refusal))
                }
            }
            items.append(FlowItem(width: size.width, height: size.height, breakBefore: breakBefore))
        }
        return items
    }

    /// The size of a label's item: measured width and line height plus the padding.
    static func size(ofWidth width: Double, _ input: FlowLabelsInput) -> Size {
        let padding = input.padding
        return Size(
            width: width + padding.leading + padding.trailing,
            height: input.font.lineMetrics.lineHeight + padding.top + padding.bottom)
    }

    /// Rule for `maxWidth`: a label wider than its item's `maxWidth` (less the padding) is laid out at that
    /// width as a paragraph: on one line cut with an ellipsis (`maxLines` 1), or wrapped (breaking
    /// words where they must) and clamped to `maxLines` with an ellipsis; its item is `maxWidth` wide
    /// and as tall as its lines (each the font's line height). The item's paragraph, for the answer.
    static func narrowed(
        _ text: String, _ narrowing: FlowLabelNarrowing, _ input: FlowLabelsInput, shaper: ParagraphShaper
    ) -> Result<(Size, ParagraphLayout), TextRefusal> {
        let padding = input.padding
        let lineHeight = input.font.lineMetrics.lineHeight
        var style = ParagraphStyle(whiteSpace: .pre, textOverflow: .ellipsis, lineHeight: lineHeight)
        if narrowing.maxLines > 1 {
            style.whiteSpace = .preWrap
            style.overflowWrap = .anywhere
            style.maxLines = Int(narrowing.maxLines)
        }
        // Rule: a label is measured as one text, as `POST /v1/text/measure` measures it: every control character is
        // refused (a paragraph's tabs and line feeds included).
        for (offset, scalar) in text.unicodeScalars.enumerated() where TextCharacters.isForbidden(scalar.value) {
            return .failure(.forbidden(scalar: scalar.value, offset: offset))
        }
        let paragraph: ShapedParagraph
        switch shaper.shape(text, whiteSpace: style.whiteSpace) {
        case .success(let shaped): paragraph = shaped
        case .failure(let refusal): return .failure(refusal)
        }
        let available = max(0, narrowing.maxWidth - padding.leading - padding.trailing)
        guard let oneLine = shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: ParagraphStyle(whiteSpace: .pre, lineHeight: lineHeight))
        else { return .failure(.outOfMemory) }
        let fits = oneLine.width <= available
        guard let layout = fits ? oneLine : shaper.layout(paragraph, width: available, style: style) else { return .failure(.outOfMemory) }
        let width = fits ? oneLine.width + padding.leading + padding.trailing : narrowing.maxWidth
        return .success((Size(width: width, height: max(layout.height, lineHeight) + padding.top + padding.bottom), layout))
    }

    /// Rule for `overflowIndicator`: the chip's label is checked with every digit in it before any count is
    /// measured, so that the fixed point measures only labels that can be measured.
    static func checkChip(_ template: String, _ measurer: TextMeasurer, _ meter: inout WorkMeter) -> TextRefusal? {
        guard case .failure(let refusal) = measurer.width(of: label(template, count: 1_234_567_890), meter: &meter) else { return nil }
        return refusal
    }

    /// Rule: the chip's size depends on the count it shows (`FlowLayout.compute(_:chipForCount:)`, its fixed
    /// point), each count's label measured; a label that cannot be measured after the check (memory ran out, or
    /// the meter said stop) refuses the chip.
    static func layoutWithChip(
        _ layout: FlowInput, template: String, _ chip: FlowLabelText, _ input: FlowLabelsInput, _ measurer: TextMeasurer,
        _ meter: inout WorkMeter
    ) -> Result<FlowOutput, FlowLabelsRefusal> {
        var failed = false
        let result = FlowLayout.compute(layout) { count in
            switch measurer.width(of: label(template, count: count), meter: &meter) {
            case .success(let width): return size(ofWidth: width, input)
            case .failure:
                failed = true
                return Size(width: 0, height: 0)
            }
        }
        guard !meter.isStopped else { return .failure(.stopped) }
        guard !failed else { return .failure(.unmeasurable([FlowLabelTextRefusal(text: chip, refusal: .outOfMemory)])) }
        return .success(result)
    }
}

import TrellisCore

/// A flow whose items (and chip) may be given as text: each text measured or laid out in the font, then the flow
/// laid out by `FlowLayout.compute`, the chip's label by the fixed point of its count. `compute` reads as its steps.
public enum FlowLabels {
    /// Lays out `input`, reading each text through `text` when it is measured, and hands the answer to `write` with a
    /// function giving the paragraph of an item's label laid out as one (nil for another item); nil then, or every
    /// text that cannot be measured (`.unmeasurable`: the items' in order, then the chip's). A step per scalar measured
    /// or shaped on `meter`, and per scalar ICU's line breaker ran over; `.stopped` once it says stop. Widths measured
    /// before are taken from and added to `cache`.
    public static func compute(
        _ input: FlowLabelsInput, text: (FlowLabelText) -> String, cache: MeasureCache?, meter: inout WorkMeter,
        write: (_ output: FlowLabelsOutput, _ paragraph: (Int) -> ParagraphLayout?) -> Void
    ) -> FlowLabelsRefusal? {
        let measurer = TextMeasurer(font: input.font, cache: cache)
        var refused: [FlowLabelTextRefusal] = []
        let items = measureItems(input, text: text, measurer, refused: &refused, &meter)
        guard !meter.isStopped else { return .stopped }
        let output: FlowLabelsOutput
        if case .text(let chip) = input.overflowIndicator {
            let template = text(chip)
            let shaper = input.labelStyle.whiteSpace.map { _ in ParagraphShaper(font: input.font) }
            if let refusal = checkChip(template, input, measurer, shaper: shaper, &meter) {
                refused.append(FlowLabelTextRefusal(text: chip, refusal: refusal))
            }
            guard !meter.isStopped else { return .stopped }
            guard refused.isEmpty else { return .unmeasurable(refused) }
            switch layoutWithChip(input.layout(items), template: template, chip, input, measurer, shaper: shaper, &meter) {
            case .success(let laidOut): output = FlowLabelsOutput(layout: laidOut.layout, chipParagraph: laidOut.paragraph)
            case .failure(let refusal): return refusal
            }
        } else {
            guard refused.isEmpty else { return .unmeasurable(refused) }
            output = FlowLabelsOutput(layout: FlowLayout.compute(input.layout(items)))
        }
        return writeAnswer(output, input, text: text, &meter, write)
    }

    /// Rule for `maxWidth` and `whiteSpace`: the lines of an item laid out as a paragraph are answered as they are
    /// written, each label laid out again (sizes keep no lines, so a request's lines cost no memory until answered).
    static func writeAnswer(
        _ output: FlowLabelsOutput, _ input: FlowLabelsInput, text: (FlowLabelText) -> String, _ meter: inout WorkMeter,
        _ write: (FlowLabelsOutput, (Int) -> ParagraphLayout?) -> Void
    ) -> FlowLabelsRefusal? {
        var shaper: ParagraphShaper?
        var failed: FlowLabelText?
        // `text` is called only while `write` runs.
        withoutActuallyEscaping(text) { text in write(output) { index in
            guard failed == nil, index < input.items.count, case .text(let label, let narrowing, _) = input.items[index],
                narrowing != nil || input.labelStyle.whiteSpace != nil
            else { return nil }
            let paragraphShaper = shaper ?? ParagraphShaper(font: input.font)
            shaper = paragraphShaper
            guard case .success(let (_, laidOut))? = paragraph(text(label), narrowing, input, shaper: paragraphShaper, &meter) else {
                failed = label
                return nil
            }
            return laidOut
        } }
        guard !meter.isStopped else { return .stopped }
        // Laid out once already: only memory can fail it now.
        if let failed { return .unmeasurable([FlowLabelTextRefusal(text: failed, refusal: .outOfMemory)]) }
        return nil
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
        refused: inout [FlowLabelTextRefusal], _ meter: inout WorkMeter
    ) -> [FlowItem] {
        var items: [FlowItem] = []
        items.reserveCapacity(input.items.count)
        var shaper: ParagraphShaper?
        for item in input.items {
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
            if narrowing != nil || input.labelStyle.whiteSpace != nil {
                let paragraphShaper = shaper ?? ParagraphShaper(font: input.font)
                shaper = paragraphShaper
                guard let result = paragraph(text(label), narrowing, input, shaper: paragraphShaper, &meter) else { break }
                switch result {
                case .success(let (narrowedSize, _)):
                    size = narrowedSize
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

    /// A label laid out as a paragraph (`narrowed`, or `natural` without a narrowing), two steps per scalar per shaping
    /// and per scalar ICU's line breaker ran over on `meter`; nil once the meter says stop.
    static func paragraph(
        _ text: String, _ narrowing: FlowLabelNarrowing?, _ input: FlowLabelsInput, shaper: ParagraphShaper, _ meter: inout WorkMeter
    ) -> Result<(Size, ParagraphLayout), TextRefusal>? {
        // `pre-wrap` shapes twice (`maxContentWidth`).
        let shapings = input.labelStyle.whiteSpace == .preWrap ? 4 : 2
        guard meter.advance(shapings * text.unicodeScalars.count) else { return nil }
        let breaking = shaper.lineBreakWork
        let result = narrowing.map { narrowed(text, $0, input, shaper: shaper) } ?? natural(text, input, shaper: shaper)
        guard meter.advance(shaper.lineBreakWork - breaking) else { return nil }
        return result
    }

    /// Rule for `whiteSpace`: a label that is not narrowed is a paragraph in that mode as wide as its widest line
    /// (CSS's max-content width: only a line feed the mode keeps ends a line), its lines placed by `textAlign`, each
    /// the font's line height; its item is that wide and as tall as its lines (at least one) plus the padding. A
    /// `pre-wrap` label's width is its width as `break-spaces`: Chromium counts the kept spaces at a line's end in the
    /// max-content width and, since they fit in that box, places the lines counting them (it hangs only spaces past the
    /// box's edge); at that width neither mode wraps.
    static func natural(_ text: String, _ input: FlowLabelsInput, shaper: ParagraphShaper) -> Result<(Size, ParagraphLayout), TextRefusal> {
        let lineHeight = input.font.lineMetrics.lineHeight
        let given = input.labelStyle.whiteSpace ?? .pre
        let whiteSpace = given == .preWrap ? .breakSpaces : given
        let paragraph: ShapedParagraph
        switch shaper.shape(text, whiteSpace: whiteSpace) {
        case .success(let shaped): paragraph = shaped
        case .failure(let refusal): return .failure(refusal)
        }
        var style = ParagraphStyle(whiteSpace: whiteSpace, lineHeight: lineHeight, tabSize: input.labelStyle.tabSize)
        guard var layout = shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: style) else { return .failure(.outOfMemory) }
        let width = layout.width
        if given == .preWrap && Self.keepsSpacesAtALineEnd(paragraph) {
            // In that box `pre-wrap` breaks the same lines, and places them counting those spaces (they fit): laid out so,
            // each line's drawn text and its offset leave them out, at its end (at its left when it is right to left).
            style.whiteSpace = .preWrap
            style.textAlign = input.labelStyle.textAlign
            guard case .success(let kept) = shaper.shape(text, whiteSpace: .preWrap), let placed = shaper.layout(kept, width: width, style: style)
            else { return .failure(.outOfMemory) }
            layout = placed
        } else if layout.lines.count > 1 && (input.labelStyle.textAlign != .start || !paragraph.bidiParagraphs.isEmpty) {
            // Lines shorter than the box are placed in it (one line as wide as the box fills it, whatever the alignment),
            // a paragraph whose direction is not the label's at its own start edge.
            style.textAlign = input.labelStyle.textAlign
            guard let aligned = shaper.layout(paragraph, width: width, style: style) else { return .failure(.outOfMemory) }
            layout = aligned
        }
        let size = Self.size(ofWidth: width, input)
        return .success((Size(width: size.width, height: max(layout.height, lineHeight) + input.padding.top + input.padding.bottom), layout))
    }

    /// Whether a space or tab (that `pre-wrap` would hang) ends a line of the paragraph: before a line feed or a carriage
    /// return, or at its end.
    static func keepsSpacesAtALineEnd(_ paragraph: ShapedParagraph) -> Bool {
        let scalars = paragraph.scalars
        for i in scalars.indices where i + 1 == scalars.count || scalars[i + 1] == WhiteSpaceProcessing.lineFeed
            || scalars[i + 1] == WhiteSpaceProcessing.carriageReturn
        {
            if ShapedParagraph.hangs(scalars[i]) || scalars[i] == WhiteSpaceProcessing.tab { return true }
        }
        return false
    }

    /// Rule (Chromium's max-content width): the widest line with its kept spaces at its end, which `pre-wrap` hangs
    /// when it lays lines out in a box but counts in the box's width (as `break-spaces` counts them: the text shaped again
    /// so, `pre-wrap` alone); `layout` is the paragraph on one line per forced break.
    static func maxContentWidth(_ text: String, _ style: ParagraphStyle, _ layout: ParagraphLayout, shaper: ParagraphShaper) -> Double? {
        guard style.whiteSpace == .preWrap else { return layout.width }
        var counted = style
        counted.whiteSpace = .breakSpaces
        guard case .success(let paragraph) = shaper.shape(text, whiteSpace: .breakSpaces) else { return nil }
        return shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: counted)?.width
    }

    /// Rule for `maxWidth`: a label wider than its item's `maxWidth` (less the padding) is laid out at that
    /// width as a paragraph: on one line cut with an ellipsis (`maxLines` 1), or wrapped (breaking
    /// words where they must) and clamped to `maxLines` with an ellipsis; its item is `maxWidth` wide
    /// and as tall as its lines (each the font's line height). The item's paragraph, for the answer.
    /// Rule for `whiteSpace` with `maxWidth`: the label is a paragraph in that mode (wrapping or not as the mode says,
    /// breaking words where they must), clamped to `maxLines` with an ellipsis, as wide as its widest line when that
    /// fits, its lines placed by `textAlign`.
    static func narrowed(
        _ text: String, _ narrowing: FlowLabelNarrowing, _ input: FlowLabelsInput, shaper: ParagraphShaper
    ) -> Result<(Size, ParagraphLayout), TextRefusal> {
        let padding = input.padding
        let lineHeight = input.font.lineMetrics.lineHeight
        var style = ParagraphStyle(whiteSpace: .pre, textOverflow: .ellipsis, lineHeight: lineHeight, tabSize: input.labelStyle.tabSize)
        style.textAlign = input.labelStyle.textAlign
        if let whiteSpace = input.labelStyle.whiteSpace {
            style.whiteSpace = whiteSpace
            style.overflowWrap = .anywhere
            style.maxLines = Int(narrowing.maxLines)
        } else if narrowing.maxLines > 1 {
            style.whiteSpace = .preWrap
            style.overflowWrap = .anywhere
            style.maxLines = Int(narrowing.maxLines)
        }
        // Rule: without a `whiteSpace`, a label is measured as one text, as `POST /v1/text/measure` measures it: every
        // control character is refused (a paragraph's tabs and line feeds included).
        if input.labelStyle.whiteSpace == nil {
            for (offset, scalar) in text.unicodeScalars.enumerated() where TextCharacters.isForbidden(scalar.value) {
                return .failure(.forbidden(scalar: scalar.value, offset: offset))
            }
        }
        let paragraph: ShapedParagraph
        switch shaper.shape(text, whiteSpace: style.whiteSpace) {
        case .success(let shaped): paragraph = shaped
        case .failure(let refusal): return .failure(refusal)
        }
        let available = max(0, narrowing.maxWidth - padding.leading - padding.trailing)
        if input.labelStyle.whiteSpace != nil {
            var natural = style
            natural.maxLines = nil
            natural.textAlign = .start
            guard let oneLine = shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: natural),
                let widest = maxContentWidth(text, natural, oneLine, shaper: shaper)
            else { return .failure(.outOfMemory) }
            let fits = widest <= available
            guard let layout = shaper.layout(paragraph, width: fits ? widest : available, style: style) else { return .failure(.outOfMemory) }
            let width = fits ? widest + padding.leading + padding.trailing : narrowing.maxWidth
            return .success((Size(width: width, height: max(layout.height, lineHeight) + padding.top + padding.bottom), layout))
        }
        guard let oneLine = shaper.layout(paragraph, width: .greatestFiniteMagnitude, style: ParagraphStyle(whiteSpace: .pre, lineHeight: lineHeight))
        else { return .failure(.outOfMemory) }
        let fits = oneLine.width <= available
        guard let layout = fits ? oneLine : shaper.layout(paragraph, width: available, style: style) else { return .failure(.outOfMemory) }
        let width = fits ? oneLine.width + padding.leading + padding.trailing : narrowing.maxWidth
        return .success((Size(width: width, height: max(layout.height, lineHeight) + padding.top + padding.bottom), layout))
    }

    /// Rule for `overflowIndicator`: the chip's label is checked with every digit in it before any count is
    /// measured, so that the fixed point measures only labels that can be measured.
    static func checkChip(
        _ template: String, _ input: FlowLabelsInput, _ measurer: TextMeasurer, shaper: ParagraphShaper?, _ meter: inout WorkMeter
    ) -> TextRefusal? {
        let digits = label(template, count: 1_234_567_890)
        if let shaper {
            guard case .failure(let refusal)? = paragraph(digits, nil, input, shaper: shaper, &meter) else { return nil }
            return refusal
        }
        guard case .failure(let refusal) = measurer.width(of: digits, meter: &meter) else { return nil }
        return refusal
    }

    /// Rule: the chip's size depends on the count it shows (`FlowLayout.compute(_:chipForCount:)`, its fixed
    /// point), each count's label measured; a label that cannot be measured after the check (memory ran out, or
    /// the meter said stop) refuses the chip.
    /// Rule for `whiteSpace`: the chip's label is a paragraph as a label that is not narrowed is (`natural`), and the
    /// answer has its lines for the count it shows.
    static func layoutWithChip(
        _ layout: FlowInput, template: String, _ chip: FlowLabelText, _ input: FlowLabelsInput, _ measurer: TextMeasurer,
        shaper: ParagraphShaper?, _ meter: inout WorkMeter
    ) -> Result<(layout: FlowOutput, paragraph: ParagraphLayout?), FlowLabelsRefusal> {
        var failed = false
        let result = FlowLayout.compute(layout) { count in
            if let shaper {
                guard case .success(let (size, _))? = paragraph(label(template, count: count), nil, input, shaper: shaper, &meter) else {
                    failed = true
                    return Size(width: 0, height: 0)
                }
                return size
            }
            switch measurer.width(of: label(template, count: count), meter: &meter) {
            case .success(let width): return size(ofWidth: width, input)
            case .failure:
                failed = true
                return Size(width: 0, height: 0)
            }
        }
        var chipParagraph: ParagraphLayout?
        if let shaper, let shown = result.overflowIndicator, !failed {
            switch paragraph(label(template, count: shown.count), nil, input, shaper: shaper, &meter) {
            case .success(let (_, laidOut))?: chipParagraph = laidOut
            default: failed = true
            }
        }
        guard !meter.isStopped else { return .failure(.stopped) }
        guard !failed else { return .failure(.unmeasurable([FlowLabelTextRefusal(text: chip, refusal: .outOfMemory)])) }
        return .success((result, chipParagraph))
    }
}

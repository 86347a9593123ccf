import TrellisCore
import TrellisJSON
import TrellisText

/// Rule: flow items (and the chip) given as text, measured in the request's `font` with
/// `labelPadding`: width = text width + leading + trailing, height = line height + top + bottom.
struct FlowLabels {
    /// An item's text, as the body holds it: 8 bytes an item, read when it is measured.
    struct Text {
        /// The item's index; -1 for the chip.
        var item: Int32
        /// Where the text is in the body (`JSONValue.index`).
        var position: UInt32

        init(item: Int, value: JSONValue) {
            self.item = Int32(truncatingIfNeeded: item)
            position = UInt32(truncatingIfNeeded: value.index)
        }
    }

    /// Rule for `maxWidth`: an item's outer width limit (padding included) and the lines it shows (1: one line cut
    /// with an ellipsis); `maxLines` 0 for an item without a `maxWidth`.
    struct Narrowing {
        var maxWidth: Double
        var maxLines: Int32

        static let none = Narrowing(maxWidth: .infinity, maxLines: 0)
    }

    struct Padding {
        var top = 0.0, leading = 0.0, bottom = 0.0, trailing = 0.0
    }

    /// The request body the texts are in.
    var body: JSONValue
    var texts: [Text]
    /// Rule for `maxWidth`: per text (parallel to `texts`), its item's narrowing; empty when no item has a `maxWidth`.
    var narrowings: [Narrowing]
    var chip: Text?
    var font: TextFont
    var padding: Padding

    /// The chip's `{n}`, replaced by the hidden count before measuring.
    static let countPlaceholder = "{n}"

    /// `labelPadding`'s members.
    enum PaddingMember: Int, JSONMember {
        case top, leading, bottom, trailing
        static let keys = JSONKeys(PaddingMember.self)
    }

    /// `font` (required with any text) and `labelPadding`, as the body's members give them; nil after recording a
    /// problem or without a font.
    static func read(
        _ body: JSONValue, font fontValue: JSONValue?, faces facesValue: JSONValue?, padding paddingValue: JSONValue?, texts: [Text],
        narrowings: [Narrowing], chip: Text?, _ context: FeatureContext, _ problems: inout Problems
    ) -> FlowLabels? {
        var font: TextFont?
        if let fontValue {
            font = TextFontRequest.read(fontValue, faces: facesValue, context, &problems)
        } else {
            if !texts.isEmpty || chip != nil {
                problems.add(at: body, member: "font", "is required when an item or the overflowIndicator has text")
            }
            // Rule: fontFaces without a font are still checked.
            if let facesValue { _ = FontFacesRequest.read(facesValue, context.fontLibrary, &problems) }
        }
        var padding = Padding()
        if let paddingValue, paddingValue.expectObject(&problems) {
            let sides = paddingValue.fields(PaddingMember.self)
            padding.top = sides.optional(PaddingMember.top)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.leading = sides.optional(PaddingMember.leading)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.bottom = sides.optional(PaddingMember.bottom)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.trailing = sides.optional(PaddingMember.trailing)?.number(&problems, FlowLimits.lengths) ?? 0
        }
        guard let font else { return nil }
        return FlowLabels(body: body, texts: texts, narrowings: narrowings, chip: chip, font: font, padding: padding)
    }

    /// A text's value in the body.
    func value(_ text: Text) -> JSONValue { body.value(at: Int(text.position)) }

    /// A text as a String.
    func string(_ text: Text) -> String { value(text).string ?? "" }

    /// The size of a label's item: measured width and line height plus the padding.
    func size(ofWidth width: Double) -> Size {
        Size(width: width + padding.leading + padding.trailing, height: font.lineMetrics.lineHeight + padding.top + padding.bottom)
    }

    /// The chip's label for a hidden count.
    static func label(_ template: String, count: Int) -> String {
        template.replacing(countPlaceholder, with: String(count))
    }

    /// Rule for `maxWidth`: a label wider than its item's `maxWidth` (less the padding) is laid out at that
    /// width as a paragraph: on one line cut with an ellipsis (`maxLines` 1), or wrapped (breaking
    /// words where they must) and clamped to `maxLines` with an ellipsis; its item is `maxWidth` wide
    /// and as tall as its lines (each the font's line height). The item's paragraph, for the answer.
    func narrowed(_ text: String, _ narrowing: Narrowing, shaper: ParagraphShaper) -> Result<(Size, ParagraphLayout), TextRefusal> {
        let lineHeight = font.lineMetrics.lineHeight
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

    /// Measures every item label into `request` (in place) and lays out, the chip's label by the fixed point of
    /// its count; records a problem at each text that cannot be measured (then the result is not used).
    /// Items with a `maxWidth` get their paragraph in `paragraphs` (by item index). A step per scalar measured or
    /// shaped on the call's meter, and per scalar ICU's line breaker ran over.
    func layout(_ request: inout FlowInput, _ call: inout EndpointCall, paragraphs: inout [Int: ParagraphLayout]) -> FlowOutput? {
        let measurer = TextMeasurer(font: font, cache: call.context.measureCache)
        var shaper: ParagraphShaper?
        for (k, label) in texts.enumerated() where !call.meter.isStopped {
            if !narrowings.isEmpty, narrowings[k].maxLines > 0 {
                let narrowing = shaper ?? ParagraphShaper(font: font)
                shaper = narrowing
                let text = string(label)
                guard call.meter.advance(2 * text.unicodeScalars.count) else { break }
                let breaking = narrowing.lineBreakWork
                let result = narrowed(text, narrowings[k], shaper: narrowing)
                guard call.meter.advance(narrowing.lineBreakWork - breaking) else { break }
                switch result {
                case .success(let (size, paragraph)):
                    request.items[Int(label.item)].width = size.width
                    request.items[Int(label.item)].height = size.height
                    paragraphs[Int(label.item)] = paragraph
                case .failure(let refusal):
                    call.problems.add(refusal, at: value(label))
                }
                continue
            }
            switch measurer.width(of: string(label), meter: &call.meter) {
            case .success(let width):
                let size = size(ofWidth: width)
                request.items[Int(label.item)].width = size.width
                request.items[Int(label.item)].height = size.height
            case .failure(let refusal):
                call.problems.add(refusal, at: value(label))
            }
        }
        guard !call.meter.isStopped else { return nil }
        guard let chip else { return call.problems.isEmpty ? FlowLayout.compute(request) : nil }
        let template = string(chip)
        // The chip's template is checked with every digit in it before any count is measured.
        if case .failure(let refusal) = measurer.width(of: Self.label(template, count: 1_234_567_890), meter: &call.meter) {
            call.problems.add(refusal, at: value(chip))
        }
        guard call.problems.isEmpty, !call.meter.isStopped else { return nil }
        var failed = false
        let result = FlowLayout.compute(request) { count in
            switch measurer.width(of: Self.label(template, count: count), meter: &call.meter) {
            case .success(let width): return size(ofWidth: width)
            case .failure:
                failed = true
                return Size(width: 0, height: 0)
            }
        }
        if failed {
            call.problems.add(TextRefusal.outOfMemory, at: value(chip))
            return nil
        }
        return result
    }
}

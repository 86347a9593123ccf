import TrellisCore
import TrellisJSON
import TrellisText

/// Rule "labels": flow items (and the chip) given as text, measured in the request's `font` with
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

    struct Padding {
        var top = 0.0, leading = 0.0, bottom = 0.0, trailing = 0.0
    }

    /// The request body the texts are in.
    var body: JSONValue
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
        return FlowLabels(body: body, texts: texts, chip: chip, font: font, padding: padding)
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

    /// Measures every item label into `request` (in place) and lays out, the chip's label by the fixed point of
    /// its count; records a problem at each text that cannot be measured (then the result is not used).
    func layout(_ request: inout FlowRequest, _ problems: inout Problems, cache: MeasureCache, meter: inout WorkMeter) -> FlowResult? {
        let measurer = TextMeasurer(font: font, cache: cache)
        for label in texts where !meter.isStopped {
            switch measurer.width(of: string(label), meter: &meter) {
            case .success(let width):
                let size = size(ofWidth: width)
                request.items[Int(label.item)].width = size.width
                request.items[Int(label.item)].height = size.height
            case .failure(let refusal):
                TextFontRequest.record(refusal, at: value(label), &problems)
            }
        }
        guard !meter.isStopped else { return nil }
        guard let chip else { return problems.isEmpty ? FlowLayout.compute(request) : nil }
        let template = string(chip)
        // The chip's template is checked with every digit in it before any count is measured.
        if case .failure(let refusal) = measurer.width(of: Self.label(template, count: 1_234_567_890), meter: &meter) {
            TextFontRequest.record(refusal, at: value(chip), &problems)
        }
        guard problems.isEmpty, !meter.isStopped else { return nil }
        var failed = false
        let result = FlowLayout.compute(request) { count in
            switch measurer.width(of: Self.label(template, count: count), meter: &meter) {
            case .success(let width): return size(ofWidth: width)
            case .failure:
                failed = true
                return Size(width: 0, height: 0)
            }
        }
        if failed {
            problems.add(at: value(chip), "could not be measured: the server ran out of memory")
            return nil
        }
        return result
    }
}

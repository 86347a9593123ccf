import TrellisJSON
import TrellisText

/// Rule: flow items (and the chip) given as text are measured in the request's `font` with `labelPadding`, white space,
/// alignment, tab size and spacing (`FlowLabels.compute`); these are those members as the body gives them.
struct FlowLabelsRequest {
    /// The font, with the request's letter and word spacing.
    var font: TextFont
    var padding: FlowLabelPadding
    var style: FlowLabelStyle

    /// Rule: the paragraph properties a label takes, read as `POST /v1/text/layout` reads them.
    struct TextMembers {
        var whiteSpace: JSONValue?
        var textAlign: JSONValue?
        var tabSize: JSONValue?
        var letterSpacing: JSONValue?
        var wordSpacing: JSONValue?

        var isEmpty: Bool { whiteSpace == nil && textAlign == nil && tabSize == nil && letterSpacing == nil && wordSpacing == nil }
    }

    /// `labelPadding`'s members.
    enum PaddingMember: Int, JSONMember {
        case top, leading, bottom, trailing
        static let keys = JSONKeys(PaddingMember.self)
    }

    /// `font` (required with any text, with its `fontFaces`), `labelPadding` and the text properties; nil after recording a
    /// problem or without a font.
    static func read(
        _ body: JSONValue, font fontValue: JSONValue?, faces facesValue: JSONValue?, padding paddingValue: JSONValue?,
        text: TextMembers, hasText: Bool, _ context: FeatureContext, _ problems: inout Problems
    ) -> FlowLabelsRequest? {
        var font: TextFont?
        if let fontValue {
            font = TextFontRequest.read(fontValue, faces: facesValue, context, &problems)
        } else {
            if hasText {
                problems.add(at: body, member: "font", "is required when an item or the overflowIndicator has text")
            }
            // Rule: fontFaces without a font are still checked.
            if let facesValue { _ = FontFacesRequest.read(facesValue, context.fontLibrary, &problems) }
        }
        var padding = FlowLabelPadding()
        if let paddingValue, paddingValue.expectObject(&problems) {
            let sides = paddingValue.fields(PaddingMember.self)
            padding.top = sides.optional(PaddingMember.top)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.leading = sides.optional(PaddingMember.leading)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.bottom = sides.optional(PaddingMember.bottom)?.number(&problems, FlowLimits.lengths) ?? 0
            padding.trailing = sides.optional(PaddingMember.trailing)?.number(&problems, FlowLimits.lengths) ?? 0
        }
        var style = FlowLabelStyle()
        style.whiteSpace = text.whiteSpace?.oneOf(WhiteSpace.self, &problems)
        if let value = text.textAlign?.oneOf(TextAlign.self, &problems) { style.textAlign = value }
        if let value = text.tabSize.flatMap({ TextLayoutRequest.readTabSize($0, &problems) }) { style.tabSize = value }
        let spacing = TextSpacingRequest.read(letter: text.letterSpacing, word: text.wordSpacing, fontSize: font?.size, &problems)
        guard let font, let spacing else { return nil }
        return FlowLabelsRequest(font: spacing.isNone ? font : font.spaced(spacing), padding: padding, style: style)
    }

    /// A text of the body, as `FlowLabels.compute` refers to it: where its value is in the parsed body.
    static func text(_ value: JSONValue) -> FlowLabelText {
        FlowLabelText(reference: UInt32(truncatingIfNeeded: value.index))
    }
}

import TrellisJSON
import TrellisText

/// Rule: flow items (and the chip) given as text are measured in the request's `font` with `labelPadding`
/// (`FlowLabels.compute`); these are the two members as the body gives them.
struct FlowLabelsRequest {
    var font: TextFont
    var padding: FlowLabelPadding

    /// `labelPadding`'s members.
    enum PaddingMember: Int, JSONMember {
        case top, leading, bottom, trailing
        static let keys = JSONKeys(PaddingMember.self)
    }

    /// `font` (required with any text, with its `fontFaces`) and `labelPadding`; nil after recording a problem or without a font.
    static func read(
        _ body: JSONValue, font fontValue: JSONValue?, faces facesValue: JSONValue?, padding paddingValue: JSONValue?, hasText: Bool,
        _ context: FeatureContext, _ problems: inout Problems
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
        guard let font else { return nil }
        return FlowLabelsRequest(font: font, padding: padding)
    }

    /// A text of the body, as `FlowLabels.compute` refers to it: where its value is in the parsed body.
    static func text(_ value: JSONValue) -> FlowLabelText {
        FlowLabelText(reference: UInt32(truncatingIfNeeded: value.index))
    }
}

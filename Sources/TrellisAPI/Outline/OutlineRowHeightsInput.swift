import TrellisCore
import TrellisJSON
import TrellisText

/// The optional `rowHeights` member of `POST /v1/outline/rows`: `{font, fontFaces?, width, labelKey?, indent?, padding?, minHeight?,
/// gap?, viewportHeight?, scrollOffset?, …paragraph properties}`: how each visible row's label wraps, and so its height.
struct OutlineRowHeightsInput {
    let font: TextFont
    let width: Double
    let labelKey: JSONKeys
    let indent: Double
    let chrome: ListRowChrome
    let gap: Double
    let style: ParagraphStyle
    /// The viewport's height and where it is scrolled (answers the selected row's scroll offset); nil without one.
    let scroll: ListScroll?

    enum Member: Int, JSONMember {
        case font, fontFaces, width, labelKey, indent, padding, minHeight, gap, viewportHeight, scrollOffset
        case whiteSpace, wordBreak, overflowWrap, maxLines, textOverflow, lineHeight
        static let keys = JSONKeys(Member.self)
    }

    init?(reading value: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard value.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = value.fields(Member.self)
        let font = members.required(Member.font, &problems).flatMap {
            TextFontRequest.read($0, faces: members.optional(Member.fontFaces), context, &problems)
        }
        let width = members.required(Member.width, &problems)?.number(&problems, TextLayoutLimits.widths)
        let labelKey = OutlineTreeInput.key(members.optional(Member.labelKey), &problems) ?? "label"
        let indent = members.optional(Member.indent)?.number(&problems, ListLimits.lengths) ?? 0
        var padding = (top: 0.0, bottom: 0.0, leading: 0.0, trailing: 0.0)
        if let object = members.optional(Member.padding), object.expectObject(&problems) {
            let sides = object.fields(ListLayoutRequest.PaddingMember.self)
            func side(_ member: ListLayoutRequest.PaddingMember) -> Double { sides.optional(member)?.number(&problems, ListLimits.lengths) ?? 0 }
            padding = (side(.top), side(.bottom), side(.leading), side(.trailing))
        }
        let minHeight = members.optional(Member.minHeight)?.number(&problems, ListLimits.lengths) ?? 0
        let gap = members.optional(Member.gap)?.number(&problems, ListLimits.lengths) ?? 0
        let viewport = members.optional(Member.viewportHeight)?.number(&problems, ListLimits.lengths)
        let scrollOffset = members.optional(Member.scrollOffset)?.number(&problems) ?? 0
        let style = ListParagraphStyleReader.read(
            whiteSpace: members.optional(Member.whiteSpace), wordBreak: members.optional(Member.wordBreak),
            overflowWrap: members.optional(Member.overflowWrap), maxLines: members.optional(Member.maxLines),
            textOverflow: members.optional(Member.textOverflow), lineHeight: members.optional(Member.lineHeight),
            fontSize: font?.size, over: ParagraphStyle(), &problems)
        guard problems.count == before, let font, let width else { return nil }
        self.font = font
        self.width = width
        self.labelKey = JSONKeys([labelKey])
        self.indent = indent
        chrome = ListRowChrome(top: padding.top, bottom: padding.bottom, leading: padding.leading, trailing: padding.trailing, minHeight: minHeight)
        self.gap = gap
        self.style = style
        scroll = viewport.map { ListScroll(offset: scrollOffset, viewportHeight: $0) }
    }
}

import TrellisJSON
import TrellisCore
import TrellisText

/// A flow layout request as the API reads it: the input of the compute it is for and the ids to echo.
struct FlowLayoutRequest: FeatureRequest {
    /// What the request is computed with.
    enum Layout {
        /// Every item and the chip given as sizes: the core's flow.
        case sizes(FlowInput)
        /// Rule: some item or the chip given as text, measured in `font` with `labelPadding`.
        case labels(FlowLabelsInput)
    }

    var layout: Layout
    /// The items' ids by index; empty when no item has one.
    var ids: [JSONValue?]
    /// The body the texts are in (a `FlowLabelText` is where its value is).
    var body: JSONValue

    /// The body's members.
    enum Member: Int, JSONMember {
        case containerWidth, items, horizontalSpacing, verticalSpacing, columnGap, rowGap, alignment, rowAlignment, direction
        case maxRows, overflowIndicator, lineBreaking, pixelScale, font, labelPadding, fontFaces
        case whiteSpace, textAlign, tabSize, letterSpacing, wordSpacing
        static let keys = JSONKeys(Member.self)
    }

    /// An item's members.
    enum ItemMember: Int, JSONMember {
        case id, text, width, height, breakBefore, maxWidth, maxLines
        static let keys = JSONKeys(ItemMember.self)
    }

    /// The overflow indicator's members (a size, or a label).
    enum ChipMember: Int, JSONMember {
        case text, width, height
        static let keys = JSONKeys(ChipMember.self)
    }

    /// The items as read: sizes until the first item given as text, then every item as given (the sizes read
    /// before it kept).
    struct Items {
        var sized: [FlowItem] = []
        var labels: [FlowLabelItem]?
    }

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = body.fields(Member.self)
        let containerWidth = members.required(Member.containerWidth, &problems)?.number(&problems, FlowLimits.lengths)
        var items = Items()
        var ids: [JSONValue?] = []
        if let list = members.required(Member.items, &problems), let elements = list.array(&problems, maxCount: FlowLimits.maxItems) {
            Self.readItems(elements, count: list.count, into: &items, ids: &ids, &problems)
        }
        let horizontalSpacing = members.optional(Member.horizontalSpacing)?.number(&problems, FlowLimits.lengths)
        let verticalSpacing = members.optional(Member.verticalSpacing)?.number(&problems, FlowLimits.lengths)
        let columnGap = members.optional(Member.columnGap)?.number(&problems, FlowLimits.lengths)
        let rowGap = members.optional(Member.rowGap)?.number(&problems, FlowLimits.lengths)
        let alignment = members.optional(Member.alignment)?.oneOf(FlowAlignment.self, &problems)
        let rowAlignment = members.optional(Member.rowAlignment)?.oneOf(FlowRowAlignment.self, &problems)
        let direction = members.optional(Member.direction)?.oneOf(FlowDirection.self, &problems)
        let maxRows = members.optional(Member.maxRows)?.integer(&problems, min: 1, max: FlowLimits.maxRowsLimit)
        var chipLabel: FlowLabelText?
        let overflowIndicator = members.optional(Member.overflowIndicator).flatMap { Self.readChip($0, label: &chipLabel, &problems) }
        let lineBreaking = members.optional(Member.lineBreaking)?.oneOf(FlowLineBreaking.self, &problems)
        let pixelScale = members.optional(Member.pixelScale)?.number(&problems, FlowLimits.pixelScales)
        // Rule: `font` is required with any text; given without text, it is still checked (as are the text properties).
        var labels: FlowLabelsRequest?
        let hasText = items.labels != nil || chipLabel != nil
        let font = members.optional(Member.font)
        let padding = members.optional(Member.labelPadding)
        let faces = members.optional(Member.fontFaces)
        let text = FlowLabelsRequest.TextMembers(
            whiteSpace: members.optional(Member.whiteSpace), textAlign: members.optional(Member.textAlign),
            tabSize: members.optional(Member.tabSize), letterSpacing: members.optional(Member.letterSpacing),
            wordSpacing: members.optional(Member.wordSpacing))
        if hasText || font != nil || padding != nil || faces != nil || !text.isEmpty {
            labels = FlowLabelsRequest.read(body, font: font, faces: faces, padding: padding, text: text, hasText: hasText, context, &problems)
        }
        guard problems.count == before, let containerWidth else { return nil }
        if hasText, let labels {
            layout = .labels(FlowLabelsInput(
                containerWidth: containerWidth,
                items: items.labels ?? items.sized.map { .size($0) },
                font: labels.font,
                padding: labels.padding,
                horizontalSpacing: horizontalSpacing ?? 0,
                verticalSpacing: verticalSpacing ?? 0,
                columnGap: columnGap ?? 0,
                rowGap: rowGap ?? 0,
                alignment: alignment ?? .leading,
                rowAlignment: rowAlignment ?? .top,
                direction: direction ?? .ltr,
                maxRows: maxRows,
                overflowIndicator: chipLabel.map { .text($0) } ?? overflowIndicator.map { .size($0) },
                lineBreaking: lineBreaking ?? .greedy,
                pixelScale: pixelScale,
                labelStyle: labels.style
            ))
        } else {
            layout = .sizes(FlowInput(
                containerWidth: containerWidth,
                items: items.sized,
                horizontalSpacing: horizontalSpacing ?? 0,
                verticalSpacing: verticalSpacing ?? 0,
                columnGap: columnGap ?? 0,
                rowGap: rowGap ?? 0,
                alignment: alignment ?? .leading,
                rowAlignment: rowAlignment ?? .top,
                direction: direction ?? .ltr,
                maxRows: maxRows,
                overflowIndicator: overflowIndicator,
                lineBreaking: lineBreaking ?? .greedy,
                pixelScale: pixelScale
            ))
        }
        self.ids = ids
        self.body = body
    }

    /// Reads every item in one pass over its members; ids are kept only once one appears.
    static func readItems(
        _ elements: JSONElements, count: Int, into items: inout Items, ids: inout [JSONValue?], _ problems: inout Problems
    ) {
        for (index, element) in elements.enumerated() {
            guard element.expectObject(&problems) else { continue }
            let members = element.fields(ItemMember.self)
            let width = members[ItemMember.width]
            let height = members[ItemMember.height]
            let breakBefore = members[ItemMember.breakBefore]
            let id = members[ItemMember.id]
            let text = members[ItemMember.text]
            let maxWidth = members[ItemMember.maxWidth]
            let maxLines = members[ItemMember.maxLines]
            var label: (text: FlowLabelText, narrowing: FlowLabelNarrowing?)?
            var itemWidth: Double?
            var itemHeight: Double?
            if let text, !text.isNull {
                // Rule: an item is text or a size, never both.
                if width != nil || height != nil {
                    problems.add(at: element, "has both text and width or height: give one or the other")
                } else if TextFontRequest.checkText(text, &problems) {
                    let limit = maxWidth.flatMap { $0.isNull ? nil : $0.number(&problems, FlowLimits.lengths) }
                    let lines = maxLines.flatMap { $0.isNull ? nil : $0.integer(&problems, min: 1, max: FlowLimits.maxLinesLimit) } ?? 1
                    label = (FlowLabelsRequest.text(text), limit.map { FlowLabelNarrowing(maxWidth: $0, maxLines: Int32(lines)) })
                }
            } else {
                // Rule for `maxWidth`: only text items are narrowed.
                if let maxWidth, !maxWidth.isNull { problems.add(at: element, member: "maxWidth", "applies only to items given as text") }
                if let maxLines, !maxLines.isNull { problems.add(at: element, member: "maxLines", "applies only to items given as text") }
                itemWidth = members.required(ItemMember.width, &problems)?.number(&problems, FlowLimits.lengths)
                itemHeight = members.required(ItemMember.height, &problems)?.number(&problems, FlowLimits.lengths)
            }
            let forcesBreak = breakBefore.flatMap { $0.isNull ? nil : $0.boolean(&problems) } ?? false
            let clientID = id.flatMap { $0.isNull || !ClientID.isValid($0, &problems) ? nil : $0 }
            if clientID != nil || !ids.isEmpty {
                if ids.isEmpty {
                    ids.reserveCapacity(count)
                    ids.append(contentsOf: repeatElement(nil, count: index))
                }
                ids.append(clientID)
            }
            if let label {
                if items.labels == nil {
                    // The first text: the sizes read so far go with the labels, with room for every item.
                    var labels: [FlowLabelItem] = []
                    labels.reserveCapacity(count)
                    for item in items.sized { labels.append(.size(item)) }
                    items.sized = []
                    items.labels = labels
                }
                items.labels?.append(.text(label.text, narrowing: label.narrowing, breakBefore: forcesBreak))
            } else if items.labels != nil {
                items.labels?.append(.size(FlowItem(width: itemWidth ?? 0, height: itemHeight ?? 0, breakBefore: forcesBreak)))
            } else {
                // Room for every item, made by the first one (a flow whose first item is text needs none).
                if index == 0 { items.sized.reserveCapacity(count) }
                items.sized.append(FlowItem(width: itemWidth ?? 0, height: itemHeight ?? 0, breakBefore: forcesBreak))
            }
        }
    }

    /// Rule for `overflowIndicator`: the chip's `{ width, height }`, or `{ text }` (its size measured for each count).
    static func readChip(_ value: JSONValue, label: inout FlowLabelText?, _ problems: inout Problems) -> Size? {
        guard value.expectObject(&problems) else { return nil }
        let members = value.fields(ChipMember.self)
        guard let text = members.optional(ChipMember.text) else {
            // Rule for `overflowIndicator`: the chip's `{ width, height }`.
            let width = members.required(ChipMember.width, &problems)?.number(&problems, FlowLimits.lengths)
            let height = members.required(ChipMember.height, &problems)?.number(&problems, FlowLimits.lengths)
            guard let width, let height else { return nil }
            return Size(width: width, height: height)
        }
        guard members[ChipMember.width] == nil && members[ChipMember.height] == nil else {
            problems.add(at: value, "has both text and width or height: give one or the other")
            return nil
        }
        guard TextFontRequest.checkText(text, &problems) else { return nil }
        label = FlowLabelsRequest.text(text)
        return nil
    }
}

import TrellisJSON
import TrellisCore
import TrellisText

/// A flow layout request as the API reads it: the core's request and the ids to echo.
struct FlowLayoutRequest: FeatureRequest {
    var layout: FlowInput
    /// The items' ids by index; empty when no item has one.
    var ids: [JSONValue?]
    /// Rule: the items given as text, the font and padding they are measured with, and the
    /// chip's label; nil when nothing is given as text.
    var labels: FlowLabels?

    /// The body's members.
    enum Member: Int, JSONMember {
        case containerWidth, items, horizontalSpacing, verticalSpacing, columnGap, rowGap, alignment, rowAlignment, direction
        case maxRows, overflowIndicator, lineBreaking, pixelScale, font, labelPadding, fontFaces
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

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = body.fields(Member.self)
        let containerWidth = members.required(Member.containerWidth, &problems)?.number(&problems, FlowLimits.lengths)
        var items: [FlowItem] = []
        var ids: [JSONValue?] = []
        var texts: [FlowLabels.Text] = []
        var narrowings: [FlowLabels.Narrowing] = []
        if let list = members.required(Member.items, &problems), let elements = list.array(&problems, maxCount: FlowLimits.maxItems) {
            items.reserveCapacity(list.count)
            Self.readItems(elements, count: list.count, into: &items, ids: &ids, texts: &texts, narrowings: &narrowings, &problems)
        }
        let horizontalSpacing = members.optional(Member.horizontalSpacing)?.number(&problems, FlowLimits.lengths)
        let verticalSpacing = members.optional(Member.verticalSpacing)?.number(&problems, FlowLimits.lengths)
        let columnGap = members.optional(Member.columnGap)?.number(&problems, FlowLimits.lengths)
        let rowGap = members.optional(Member.rowGap)?.number(&problems, FlowLimits.lengths)
        let alignment = members.optional(Member.alignment)?.oneOf(FlowAlignment.self, &problems)
        let rowAlignment = members.optional(Member.rowAlignment)?.oneOf(FlowRowAlignment.self, &problems)
        let direction = members.optional(Member.direction)?.oneOf(FlowDirection.self, &problems)
        let maxRows = members.optional(Member.maxRows)?.integer(&problems, min: 1, max: FlowLimits.maxRowsLimit)
        var chipLabel: FlowLabels.Text?
        let overflowIndicator = members.optional(Member.overflowIndicator).flatMap { Self.readChip($0, label: &chipLabel, &problems) }
        let lineBreaking = members.optional(Member.lineBreaking)?.oneOf(FlowLineBreaking.self, &problems)
        let pixelScale = members.optional(Member.pixelScale)?.number(&problems, FlowLimits.pixelScales)
        // Rule: `font` is required with any text; given without text, it is still checked.
        var labels: FlowLabels?
        let hasText = !texts.isEmpty || chipLabel != nil
        let font = members.optional(Member.font)
        let padding = members.optional(Member.labelPadding)
        let faces = members.optional(Member.fontFaces)
        if hasText || font != nil || padding != nil || faces != nil {
            labels = FlowLabels.read(
                body, font: font, faces: faces, padding: padding, texts: texts, narrowings: narrowings, chip: chipLabel, context,
                &problems)
            if !hasText { labels = nil }
        }
        guard problems.count == before, let containerWidth else { return nil }
        let layout = FlowInput(
            containerWidth: containerWidth,
            items: items,
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
        )
        self.init(layout: layout, ids: ids, labels: labels)
    }

    init(layout: FlowInput, ids: [JSONValue?], labels: FlowLabels?) {
        self.layout = layout
        self.ids = ids
        self.labels = labels
    }

    /// Reads every item in one pass over its members; ids are kept only once one appears.
    static func readItems(
        _ elements: JSONElements, count: Int, into items: inout [FlowItem], ids: inout [JSONValue?],
        texts: inout [FlowLabels.Text], narrowings: inout [FlowLabels.Narrowing], _ problems: inout Problems
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
            var itemWidth: Double?
            var itemHeight: Double?
            if let text, !text.isNull {
                // Rule: an item is text or a size, never both.
                if width != nil || height != nil {
                    problems.add(at: element, "has both text and width or height: give one or the other")
                } else if TextFontRequest.checkText(text, &problems) {
                    if texts.isEmpty { texts.reserveCapacity(count - index) }
                    let limit = maxWidth.flatMap { $0.isNull ? nil : $0.number(&problems, FlowLimits.lengths) }
                    let lines = maxLines.flatMap { $0.isNull ? nil : $0.integer(&problems, min: 1, max: FlowLimits.maxLinesLimit) } ?? 1
                    if let limit {
                        // Parallel to the texts, made when the first item narrows.
                        if narrowings.isEmpty { narrowings = Array(repeating: .none, count: texts.count) }
                        narrowings.append(FlowLabels.Narrowing(maxWidth: limit, maxLines: Int32(lines)))
                    } else if !narrowings.isEmpty {
                        narrowings.append(.none)
                    }
                    texts.append(FlowLabels.Text(item: index, value: text))
                }
                itemWidth = 0
                itemHeight = 0
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
            items.append(FlowItem(width: itemWidth ?? 0, height: itemHeight ?? 0, breakBefore: forcesBreak))
        }
    }

    /// Rule for `overflowIndicator`: the chip's `{ width, height }`, or `{ text }` (its size measured later).
    static func readChip(_ value: JSONValue, label: inout FlowLabels.Text?, _ problems: inout Problems) -> Size? {
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
        label = FlowLabels.Text(item: -1, value: text)
        return Size(width: 0, height: 0)
    }
}

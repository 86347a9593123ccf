import TrellisJSON
import TrellisCore
import TrellisText

/// A flow layout request as the API reads it: the core's request and the ids to echo.
struct FlowLayoutRequest {
    var layout: FlowRequest
    /// The items' ids by index; empty when no item has one.
    var ids: [JSONValue?]
    /// Rule "labels": the items given as text, the font and padding they are measured with, and the
    /// chip's label; nil when nothing is given as text.
    var labels: FlowLabels?

    /// Reads the body, recording every problem with its pointer; nil when there was any. 503 while
    /// the fonts a labelled request needs are loading.
    static func read(_ body: JSONValue, _ fonts: TextFonts, _ problems: inout Problems) throws(ProblemDetails) -> FlowLayoutRequest? {
        guard body.expectObject(&problems) else { return nil }
        let before = problems.count
        let containerWidth = body.required("containerWidth", &problems)?.number(&problems, FlowLimits.lengths)
        var items: [FlowItem] = []
        var ids: [JSONValue?] = []
        var texts: [FlowLabels.Text] = []
        var narrowings: [FlowLabels.Narrowing] = []
        if let list = body.required("items", &problems), let elements = list.array(&problems, maxCount: FlowLimits.maxItems) {
            items.reserveCapacity(list.count)
            readItems(elements, count: list.count, into: &items, ids: &ids, texts: &texts, narrowings: &narrowings, &problems)
        }
        let horizontalSpacing = body.optional("horizontalSpacing")?.number(&problems, FlowLimits.lengths)
        let verticalSpacing = body.optional("verticalSpacing")?.number(&problems, FlowLimits.lengths)
        let columnGap = body.optional("columnGap")?.number(&problems, FlowLimits.lengths)
        let rowGap = body.optional("rowGap")?.number(&problems, FlowLimits.lengths)
        let alignment = body.optional("alignment")?.oneOf(FlowAlignment.self, &problems)
        let rowAlignment = body.optional("rowAlignment")?.oneOf(FlowRowAlignment.self, &problems)
        let direction = body.optional("direction")?.oneOf(FlowDirection.self, &problems)
        let maxRows = body.optional("maxRows")?.integer(&problems, min: 1, max: FlowLimits.maxRowsLimit)
        var chipLabel: FlowLabels.Text?
        let overflowIndicator = body.optional("overflowIndicator").flatMap { readChip($0, label: &chipLabel, &problems) }
        let lineBreaking = body.optional("lineBreaking")?.oneOf(FlowLineBreaking.self, &problems)
        let pixelScale = body.optional("pixelScale")?.number(&problems, FlowLimits.pixelScales)
        // Rule "labels": `font` is required with any text; given without text, it is still checked.
        var labels: FlowLabels?
        let hasText = !texts.isEmpty || chipLabel != nil
        if hasText || body.optional("font") != nil || body.optional("labelPadding") != nil {
            labels = try FlowLabels.read(body, texts: texts, narrowings: narrowings, chip: chipLabel, fonts, &problems)
            if !hasText { labels = nil }
        }
        guard problems.count == before, let containerWidth else { return nil }
        let layout = FlowRequest(
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
        return FlowLayoutRequest(layout: layout, ids: ids, labels: labels)
    }

    /// Reads every item in one pass over its members; ids are kept only once one appears.
    static func readItems(
        _ elements: JSONElements, count: Int, into items: inout [FlowItem], ids: inout [JSONValue?],
        texts: inout [FlowLabels.Text], narrowings: inout [FlowLabels.Narrowing], _ problems: inout Problems
    ) {
        for (index, element) in elements.enumerated() {
            guard element.expectObject(&problems) else { continue }
            var width: JSONValue?
            var height: JSONValue?
            var breakBefore: JSONValue?
            var id: JSONValue?
            var text: JSONValue?
            var maxWidth: JSONValue?
            var maxLines: JSONValue?
            // Duplicate keys: the last one wins.
            for (key, value) in element.members {
                key.withStringBytes { name in
                    if sameBytes(name, "id") {
                        id = value
                    } else if sameBytes(name, "text") {
                        text = value
                    } else if sameBytes(name, "width") {
                        width = value
                    } else if sameBytes(name, "height") {
                        height = value
                    } else if sameBytes(name, "breakBefore") {
                        breakBefore = value
                    } else if sameBytes(name, "maxWidth") {
                        maxWidth = value
                    } else if sameBytes(name, "maxLines") {
                        maxLines = value
                    }
                }
            }
            var itemWidth: Double?
            var itemHeight: Double?
            if let text, !text.isNull {
                // Rule "labels": an item is text or a size, never both.
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
                // Rule "maxWidth": only text items are narrowed.
                if let maxWidth, !maxWidth.isNull { problems.add(at: element, member: "maxWidth", "applies only to items given as text") }
                if let maxLines, !maxLines.isNull { problems.add(at: element, member: "maxLines", "applies only to items given as text") }
                itemWidth = requiredLength(width, in: element, "width", &problems)
                itemHeight = requiredLength(height, in: element, "height", &problems)
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

    /// A required length member of an item, already looked up.
    static func requiredLength(
        _ value: JSONValue?, in item: JSONValue, _ name: String, _ problems: inout Problems
    ) -> Double? {
        guard let value else {
            problems.add(at: item, member: name, "is required")
            return nil
        }
        return value.number(&problems, FlowLimits.lengths)
    }

    /// Rule "overflowIndicator": the chip's `{ width, height }`, or `{ text }` (its size measured later).
    static func readChip(_ value: JSONValue, label: inout FlowLabels.Text?, _ problems: inout Problems) -> Size? {
        guard value.expectObject(&problems) else { return nil }
        guard let text = value.optional("text") else { return readSize(value, &problems) }
        guard value.member("width") == nil && value.member("height") == nil else {
            problems.add(at: value, "has both text and width or height: give one or the other")
            return nil
        }
        guard TextFontRequest.checkText(text, &problems) else { return nil }
        label = FlowLabels.Text(item: -1, value: text)
        return Size(width: 0, height: 0)
    }

    /// Rule "overflowIndicator": the chip's `{ width, height }`.
    static func readSize(_ value: JSONValue, _ problems: inout Problems) -> Size? {
        guard value.expectObject(&problems) else { return nil }
        let width = value.required("width", &problems)?.number(&problems, FlowLimits.lengths)
        let height = value.required("height", &problems)?.number(&problems, FlowLimits.lengths)
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }
}

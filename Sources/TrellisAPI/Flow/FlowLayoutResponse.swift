import TrellisJSON
import TrellisCore
import TrellisText

/// Writes the flow layout's answer: items, rows, size, hiddenCount and the chip when shown.
enum FlowLayoutResponse {
    /// Bytes to reserve: about 80 per item (plus its id) and 64 per row.
    static func estimatedSize(_ result: FlowOutput, hasIDs: Bool) -> Int {
        256 + result.items.count * (hasIDs ? 112 : 80) + result.rows.count * 64
    }

    static func write(
        _ result: FlowOutput, ids: [JSONValue?], paragraph: (Int) -> ParagraphLayout? = { _ in nil },
        chipParagraph: ParagraphLayout? = nil, to json: inout JSONWriter
    ) {
        json.reserveCapacity(estimatedSize(result, hasIDs: !ids.isEmpty))
        json.beginObject()
        json.key("items")
        json.beginArray()
        for item in result.items {
            json.beginObject()
            // Rule: echoed only when given.
            if !ids.isEmpty, let id = ids[item.index] {
                json.key("id")
                ClientID.write(id, to: &json)
            }
            int("index", item.index, &json)
            int("row", item.row, &json)
            write(item.rect, to: &json)
            // Rule for `maxWidth` and `whiteSpace`: an item whose label is laid out as a paragraph (narrowed to its
            // maxWidth, or every label with a whiteSpace) gives its label's lines (from the item's content box: padding
            // excluded) and whether its text was cut.
            // (Past the answer's limit nothing more is written: no label is laid out again.)
            if json.failure == nil, let paragraph = paragraph(item.index) {
                TextLayoutResponse.writeLines(paragraph, to: &json)
                TextLayoutResponse.writeTruncation(paragraph, to: &json)
            }
            json.endObject()
        }
        json.endArray()
        json.key("rows")
        json.beginArray()
        for row in result.rows {
            json.beginObject()
            number("y", row.y, &json)
            number("height", row.height, &json)
            number("width", row.width, &json)
            int("start", row.start, &json)
            int("count", row.count, &json)
            json.endObject()
        }
        json.endArray()
        json.key("size")
        json.beginObject()
        number("width", result.size.width, &json)
        number("height", result.size.height, &json)
        json.endObject()
        int("hiddenCount", result.hiddenCount, &json)
        // Rule for `overflowIndicator`: present only when requested and items are hidden.
        if let indicator = result.overflowIndicator {
            json.key("overflowIndicator")
            json.beginObject()
            write(indicator.rect, to: &json)
            int("count", indicator.count, &json)
            // Rule for `whiteSpace`: a chip given as text gives its label's lines for the count it shows.
            if let chipParagraph {
                TextLayoutResponse.writeLines(chipParagraph, to: &json)
                TextLayoutResponse.writeTruncation(chipParagraph, to: &json)
            }
            json.endObject()
        }
        json.endObject()
    }

    /// The members x, y, width, height of a rectangle.
    static func write(_ rect: Rect, to json: inout JSONWriter) {
        number("x", rect.x, &json)
        number("y", rect.y, &json)
        number("width", rect.width, &json)
        number("height", rect.height, &json)
    }

    static func number(_ name: StaticString, _ value: Double, _ json: inout JSONWriter) {
        json.key(name)
        json.number(value)
    }

    static func int(_ name: StaticString, _ value: Int, _ json: inout JSONWriter) {
        json.key(name)
        json.int(value)
    }
}

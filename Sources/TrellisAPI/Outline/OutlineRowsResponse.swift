import TrellisCore
import TrellisJSON
import TrellisText

/// The answer of `POST /v1/outline/rows`.
enum OutlineRowsResponse {
    /// `{"rows": [row], "totalRows", "selectedRow", "noSelection": {"selected"}}`; with a search, each row
    /// also has `match` (`{"ranges"}` or null) and the answer `matchCount`.
    /// With row heights, each row also has `height` and `offset`, and the answer `totalHeight` and, with a viewport,
    /// `selectedScrollOffset` (null when the selection is not a row).
    static func write(_ rows: OutlineRowsOutput, _ request: OutlineRowsRequest, layout: OutlineRowsLayoutOutput? = nil, to json: inout JSONWriter) {
        let input = request.input
        // A row with short ids is about 100 bytes: the buffer grows once or not at all.
        json.reserveCapacity(256 + rows.rows.count * (rows.matches == nil ? 100 : 130))
        json.beginObject()
        json.key("rows")
        json.beginArray()
        // Past the answer's bound nothing more is written: stop walking the rows.
        for (k, row) in rows.rows.enumerated() where json.failure == nil {
            json.beginObject()
            json.key("index"); json.int(row.index)
            json.key("id"); input.writeID(of: row.node, to: &json)
            json.key("depth"); json.int(row.depth)
            json.key("parent")
            if let parent = row.parent { input.writeID(of: parent, to: &json) } else { json.null() }
            json.key("expandable"); json.bool(row.expandable)
            json.key("expanded"); json.bool(row.expanded)
            json.key("selected"); json.bool(row.selected)
            if let layout {
                json.key("height"); json.number(layout.heights[k])
                json.key("offset"); json.number(layout.offsets[k])
            }
            if let matches = rows.matches {
                // Rule: a matching row has its ranges; an ancestor only on the way has null.
                json.key("match")
                if matches.isMatch(row.node) {
                    json.beginObject()
                    json.key("ranges"); OutlineExpansionResponse.write(rows.ranges, of: k, to: &json)
                    json.endObject()
                } else {
                    json.null()
                }
            }
            json.endObject()
        }
        json.endArray()
        json.key("totalRows"); json.int(rows.totalRows)
        json.key("selectedRow")
        if let selectedRow = rows.selectedRow { json.int(selectedRow) } else { json.null() }
        if let layout {
            json.key("totalHeight"); json.number(layout.totalHeight)
            if request.rowHeights?.scroll != nil {
                json.key("selectedScrollOffset")
                if let offset = layout.selectedScrollOffset { json.number(offset) } else { json.null() }
            }
        }
        if let matches = rows.matches {
            json.key("matchCount"); json.int(matches.matchCount)
        }
        // Rule: the "No Selection" row is selected exactly when selection is null or absent.
        if request.includeNoSelection {
            json.key("noSelection")
            json.beginObject()
            json.key("selected"); json.bool(request.selection == nil)
            json.endObject()
        }
        json.endObject()
    }
}

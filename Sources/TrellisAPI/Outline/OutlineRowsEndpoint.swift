import TrellisJSON
import TrellisCore

/// Issue 3, POST /v1/outline/rows: the window of visible rows of an outline picker.
enum OutlineRowsEndpoint {
    static let endpoint = JSONEndpoint(path: "/v1/outline/rows", depthAdvice: OutlineLimits.depthAdvice,
        sizeAdvice: OutlineLimits.rowsSizeAdvice
    ) {
        body, problems, json in
        guard let request = OutlineRowsRequest(body, &problems) else { return }
        let rows = OutlineRows(
            tree: request.input.tree, selection: request.selection.flatMap { request.input.index(of: $0) },
            expanded: request.expanded, offset: request.offset, limit: request.limit)
        write(rows, request, &json)
    }

    /// `{"rows": [row], "totalRows", "selectedRow", "noSelection": {"selected"}}`.
    static func write(_ rows: OutlineRows, _ request: OutlineRowsRequest, _ json: inout JSONWriter) {
        let input = request.input
        json.beginObject()
        json.key("rows")
        json.beginArray()
        for row in rows.rows {
            json.beginObject()
            json.key("index"); json.int(row.index)
            json.key("id"); input.writeID(of: row.node, to: &json)
            json.key("depth"); json.int(row.depth)
            json.key("parent")
            if let parent = row.parent { input.writeID(of: parent, to: &json) } else { json.null() }
            json.key("expandable"); json.bool(row.expandable)
            json.key("expanded"); json.bool(row.expanded)
            json.key("selected"); json.bool(row.selected)
            json.endObject()
        }
        json.endArray()
        json.key("totalRows"); json.int(rows.totalRows)
        json.key("selectedRow")
        if let selectedRow = rows.selectedRow { json.int(selectedRow) } else { json.null() }
        // Issue 3, rows: the seed's "No Selection" row, selected exactly when selection is null or absent.
        if request.includeNoSelection {
            json.key("noSelection")
            json.beginObject()
            json.key("selected"); json.bool(request.selection == nil)
            json.endObject()
        }
        json.endObject()
    }
}

import TrellisJSON
import TrellisText

/// Writes the list at each width as it comes: `{"layouts":[{width, heights, offsets, total, lineCounts,
/// truncated, window?, anchor?}, …], "list"?}`, every per-row member a plain array in row order.
enum ListLayoutResponse {
    /// `{"layouts":[`, before the first width.
    static func begin(to json: inout JSONWriter) {
        json.beginObject()
        json.key("layouts")
        json.beginArray()
    }

    /// One width's layout; `anchorAsked`: the anchor member is written (null when no row has its key).
    static func write(_ layout: ListLayoutOutput, anchorAsked: Bool, to json: inout JSONWriter) {
        let rows = layout.count
        json.beginObject()
        json.key("width"); json.number(layout.width)
        json.key("heights")
        json.beginArray()
        layout.heights.withUnsafeBufferPointer { heights in json.numbers(rows) { heights[$0] } }
        json.endArray()
        json.key("offsets")
        json.beginArray()
        layout.offsets.withUnsafeBufferPointer { offsets in json.numbers(rows) { offsets[$0] } }
        json.endArray()
        json.key("total"); json.number(layout.total)
        json.key("lineCounts")
        json.beginArray()
        json.ints(rows) { layout.lineCount(ofRow: $0) }
        json.endArray()
        json.key("truncated")
        json.beginArray()
        json.bools(rows) { layout.isTruncated(row: $0) }
        json.endArray()
        if let window = layout.window {
            json.key("window")
            json.beginObject()
            json.key("start"); json.int(window.start)
            json.key("end"); json.int(window.end)
            json.endObject()
        }
        if anchorAsked {
            json.key("anchor")
            if let anchor = layout.anchor {
                json.beginObject()
                json.key("index"); json.int(anchor.index)
                json.key("scrollOffset"); json.number(anchor.scrollOffset)
                json.endObject()
            } else {
                json.null()
            }
        }
        json.endObject()
    }

    /// `]}`, after the last width, with `"list"` between when the list was to be kept (`list`: its id, or null when
    /// it was not kept).
    static func end(list: String??, to json: inout JSONWriter) {
        json.endArray()
        if let list {
            json.key("list")
            if let list { json.string(list) } else { json.null() }
        }
        json.endObject()
    }
}

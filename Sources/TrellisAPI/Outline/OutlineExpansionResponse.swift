import TrellisCore
import TrellisJSON

/// The answer of `POST /v1/outline/expansion`.
enum OutlineExpansionResponse {
    /// `{"expand": [id], "paths": [{"id", "found", "path": [id]}]}`.
    static func write(_ expansion: OutlineExpansionOutput, _ request: OutlineExpansionRequest, to json: inout JSONWriter) {
        let input = request.input
        json.beginObject()
        json.key("expand")
        json.beginArray()
        for node in expansion.expand { input.writeID(of: node, to: &json) }
        json.endArray()
        json.key("paths")
        json.beginArray()
        // Past the answer's bound nothing more is written: stop walking the paths.
        for (k, path) in expansion.paths.enumerated() where json.failure == nil {
            json.beginObject()
            json.key("id"); ClientID.write(request.selections[k], to: &json)
            json.key("found"); json.bool(request.indices[k] != nil)
            json.key("path")
            json.beginArray()
            for node in path { input.writeID(of: node, to: &json) }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// With a search: `{"expand": [id], "matches": [{"id", "ranges": [[start, end]]}]}`, no `paths`.
    static func write(_ expansion: OutlineSearchExpansionOutput, _ request: OutlineExpansionRequest, to json: inout JSONWriter) {
        let input = request.input
        json.beginObject()
        json.key("expand")
        json.beginArray()
        for node in expansion.expand where json.failure == nil { input.writeID(of: node, to: &json) }
        json.endArray()
        json.key("matches")
        json.beginArray()
        // Past the answer's bound nothing more is written: stop walking the matches.
        for node in expansion.matches where json.failure == nil {
            json.beginObject()
            json.key("id"); input.writeID(of: node, to: &json)
            json.key("ranges"); write(expansion.ranges, of: node, to: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// `[[start, end], …]`: one entry's ranges (a node's, or a row's), in UTF-16 code units of its label.
    static func write(_ ranges: OutlineMatchRanges?, of entry: Int, to json: inout JSONWriter) {
        json.beginArray()
        ranges?.forEach(of: entry) { start, end in
            json.beginArray()
            json.int(start)
            json.int(end)
            json.endArray()
        }
        json.endArray()
    }
}

import TrellisJSON
import TrellisText
import TrellisHTTP

/// `GET /v1/fonts`: the faces requests can select, sorted by family, weight, then style.
enum FontsListing {
    static let path = "/v1/fonts"

    /// The listing of `collection`, with its ETag (made once, by the feature context).
    static func answer(_ collection: FontCollection) -> FixedAnswer {
        var json = JSONWriter()
        json.beginObject()
        json.key("fonts")
        json.beginArray()
        for face in collection.listing {
            json.beginObject()
            json.key("family"); json.string(face.family)
            json.key("weight"); json.int(face.weight)
            json.key("style"); json.string((face.isItalic ? FontStyle.italic : FontStyle.normal).wireName)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return FixedAnswer(json.bytes, type: "application/json")
    }
}

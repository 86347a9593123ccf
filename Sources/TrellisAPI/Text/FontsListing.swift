import TrellisJSON
import TrellisText
import TrellisHTTP

/// `GET /v1/fonts`: the faces requests can select, sorted by family, weight, then style.
enum FontsListing {
    static let path = "/v1/fonts"

    static func response(_ fonts: TextFonts) -> TrellisResponse {
        guard let collection = fonts.collection else {
            return ProblemDetails.unavailable("The fonts are still loading; retry shortly.").response()
        }
        // Fixed once the fonts have loaded: cacheable, and revalidated by the listing's own tag.
        return fonts.listingAnswer(for: collection, make: answer).response
    }

    private static func answer(_ collection: FontCollection) -> FixedAnswer {
        var json = JSONWriter()
        json.beginObject()
        json.key("fonts")
        json.beginArray()
        for face in collection.listing {
            json.beginObject()
            json.key("family"); json.string(face.family)
            json.key("weight"); json.int(face.weight)
            json.key("style"); json.string(face.isItalic ? "italic" : "normal")
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return FixedAnswer(json.bytes, type: "application/json")
    }
}

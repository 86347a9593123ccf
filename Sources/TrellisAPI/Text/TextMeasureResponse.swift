import TrellisJSON
import TrellisText

/// Writes the measured texts: the font's metrics, then each text's width and the line height.
enum TextMeasureResponse {
    static func write(_ widths: [Double], lineHeight: Double, font: TextFont, to json: inout JSONWriter) {
        json.reserveCapacity(160 + widths.count * 40)
        json.beginObject()
        json.key("font")
        TextFontRequest.write(font, to: &json)
        json.key("texts")
        json.beginArray()
        for width in widths {
            json.beginObject()
            json.key("width"); json.number(width)
            json.key("height"); json.number(lineHeight)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }
}

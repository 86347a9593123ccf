import TrellisJSON
import TrellisText

/// A stored font's metadata: its id, format and size as sent, its sanitized size, and each face's family, weight,
/// style, stretch, variation axes (tag, min, default, max) and named instances (each one's coordinates in the order
/// of the axes).
enum FontMetadataResponse {
    /// Rule: the bytes the metadata of a font takes at most: a fixed part, then per face, axis and named instance
    /// (their names are at most 256 bytes each, as read).
    static func write(_ font: StoredFont, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(font.id.description)
        json.key("format"); json.string(font.format.wireName)
        json.key("size"); json.int(font.sentBytes)
        json.key("sanitizedSize"); json.int(font.files.reduce(0) { $0 + $1.byteCount })
        json.key("faces")
        json.beginArray()
        for (index, face) in font.faces.enumerated() {
            json.beginObject()
            json.key("index"); json.int(index)
            json.key("family"); json.string(face.family)
            json.key("weight"); json.int(face.weight)
            json.key("style"); json.string((face.isItalic ? FontStyle.italic : FontStyle.normal).wireName)
            json.key("stretch"); json.string(percentage(face.stretch))
            json.key("axes")
            json.beginArray()
            for axis in face.axes {
                json.beginObject()
                json.key("tag"); json.string(axis.tag.description)
                json.key("min"); json.number(axis.minimum)
                json.key("default"); json.number(axis.defaultValue)
                json.key("max"); json.number(axis.maximum)
                json.endObject()
            }
            json.endArray()
            json.key("namedInstances")
            json.beginArray()
            for instance in face.namedInstances() {
                json.beginObject()
                json.key("name"); json.string(String(instance.name.prefix(256)))
                json.key("coordinates")
                json.beginArray()
                for coordinate in instance.coordinates { json.number(coordinate) }
                json.endArray()
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    /// `100%`, `87.5%`.
    static func percentage(_ value: Double) -> String {
        (value == value.rounded() ? String(Int(value)) : String(value)) + "%"
    }
}

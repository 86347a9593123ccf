import TrellisAPI

/// A POST endpoint for testing the shared HTTP rules without any feature:
/// `{"width": number ≥ 0, "name": string, "tags"?: [string]}` → the same values back, plus
/// `"body"`: the whole request body re-emitted by the writer.
let echoEndpoint = JSONEndpoint(path: "/test/echo", depthAdvice: "Send a flatter document.") { json, problems, out, _ in
    guard json.expectObject(&problems) else { return }
    let width = json.required("width", &problems)?.number(&problems, .nonNegative)
    let name = json.required("name", &problems)?.text(&problems)
    var tags: [String] = []
    if let list = json.optional("tags")?.array(&problems, maxCount: 3) {
        for tag in list {
            if let text = tag.text(&problems) { tags.append(text) }
        }
    }
    guard problems.isEmpty, let width, let name else { return }
    out.beginObject()
    out.key("width"); out.number(width)
    out.key("name"); out.string(name)
    out.key("tags"); out.beginArray(); for tag in tags { out.string(tag) }; out.endArray()
    out.key("body"); out.value(json)
    out.endObject()
}

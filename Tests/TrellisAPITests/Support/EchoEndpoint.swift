import TrellisAPI
import TrellisJSON

/// A POST endpoint for testing the shared HTTP rules without any feature:
/// `{"width": number ≥ 0, "name": string, "tags"?: [string]}` → the same values back, plus
/// `"body"`: the whole request body re-emitted by the writer.
let echoEndpoint = JSONEndpoint(path: "/test/echo", depthAdvice: "Send a flatter document.") { json, _, problems, out, _ in
    guard json.expectObject(&problems) else { return }
    let members = json.fields(EchoMember.self)
    let width = members.required(EchoMember.width, &problems)?.number(&problems, .nonNegative)
    let name = members.required(EchoMember.name, &problems)?.text(&problems)
    var tags: [String] = []
    if let list = members.optional(EchoMember.tags)?.array(&problems, maxCount: 3) {
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

/// The echo body's members.
enum EchoMember: Int, JSONMember {
    case width, name, tags
    static let keys = JSONKeys(EchoMember.self)
}

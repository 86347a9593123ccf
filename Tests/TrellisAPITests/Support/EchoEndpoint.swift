import TrellisAPI
import TrellisJSON

/// A POST endpoint for testing the shared HTTP rules without any feature:
/// `{"width": number ≥ 0, "name": string, "tags"?: [string]}` → the same values back, plus
/// `"body"`: the whole request body re-emitted by the writer.
let echoEndpoint = JSONEndpoint(path: "/test/echo", depthAdvice: "Send a flatter document.") { json, call in
    guard json.expectObject(&call.problems) else { return }
    let members = json.fields(EchoMember.self)
    let width = members.required(EchoMember.width, &call.problems)?.number(&call.problems, .nonNegative)
    let name = members.required(EchoMember.name, &call.problems)?.text(&call.problems)
    var tags: [String] = []
    if let list = members.optional(EchoMember.tags)?.array(&call.problems, maxCount: 3) {
        for tag in list {
            if let text = tag.text(&call.problems) { tags.append(text) }
        }
    }
    guard call.problems.isEmpty, let width, let name else { return }
    call.json.beginObject()
    call.json.key("width"); call.json.number(width)
    call.json.key("name"); call.json.string(name)
    call.json.key("tags"); call.json.beginArray(); for tag in tags { call.json.string(tag) }; call.json.endArray()
    call.json.key("body"); call.json.value(json)
    call.json.endObject()
}

/// The echo body's members.
enum EchoMember: Int, JSONMember {
    case width, name, tags
    static let keys = JSONKeys(EchoMember.self)
}

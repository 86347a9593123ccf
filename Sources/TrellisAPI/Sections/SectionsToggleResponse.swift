import TrellisJSON
import TrellisCore

/// The 200 answer: the final state in the request's section order, items echoed while open.
enum SectionsToggleResponse {
    static func write(_ view: SectionsOutput, sections: [SectionsRequestSection], to json: inout JSONWriter) {
        json.beginObject()
        json.key("expanded")
        writeIDs(view.expanded, of: sections, to: &json)
        json.key("changed")
        writeIDs(view.changed, of: sections, to: &json)
        json.key("sections")
        json.beginArray()
        for (section, state) in zip(sections, view.sections) {
            json.beginObject()
            json.key("id")
            ClientID.write(section.id, to: &json)
            json.key("expanded")
            json.bool(state.expanded)
            json.key("headerDisabled")
            json.bool(state.headerDisabled)
            json.key("icon")
            json.string(state.icon.wireName)
            json.key("showDivider")
            json.bool(state.showDivider)
            json.key("items")
            if state.expanded, let items = section.items {
                json.value(items)
            } else {
                json.beginArray()
                json.endArray()
            }
            json.key("itemCount")
            json.int(section.itemCount)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private static func writeIDs(_ indices: [Int], of sections: [SectionsRequestSection], to json: inout JSONWriter) {
        json.beginArray()
        for index in indices {
            ClientID.write(sections[index].id, to: &json)
        }
        json.endArray()
    }
}

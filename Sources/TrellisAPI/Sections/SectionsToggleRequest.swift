import TrellisJSON
import TrellisCore

/// The body of `POST /v1/sections/toggle`, ids mapped to section indices.
struct SectionsToggleRequest {
    let sections: [SectionsRequestSection]
    let state: SectionsState
    let actions: [SectionsAction]

    /// Reads the body, recording every problem with its pointer; nil when there was any.
    static func read(_ body: JSONValue, _ problems: inout Problems) -> SectionsToggleRequest? {
        SectionsToggleRequest(reading: body, &problems)
    }

    private init?(reading root: JSONValue, _ problems: inout Problems) {
        let problemsBefore = problems.count
        guard root.expectObject(&problems) else { return nil }

        var sections: [SectionsRequestSection] = []
        let sectionsValue = root.required("sections", &problems)
        let sectionList = sectionsValue?.array(&problems, maxCount: SectionsLimits.maxSections)
        // Section ids by index, compared on the parsed document (no String or Dictionary entry per id).
        var ids = IDTable(in: root, expectedCount: sectionList == nil ? 0 : sectionsValue?.count ?? 0)
        for element in sectionList.map(Array.init) ?? [] {
            guard element.expectObject(&problems) else { continue }
            // Both members in one pass over the section.
            let (idMember, itemsMember) = element.members("id", "items")
            if idMember == nil { problems.add(at: element, member: "id", "is required") }
            let idValue = idMember.flatMap { ClientID.isValid($0, &problems) ? $0 : nil }
            let items = itemsMember.flatMap { $0.isNull || $0.array(&problems) == nil ? nil : $0 }
            guard let idValue else { continue }
            // Rule: duplicate section ids → 422.
            if let first = ids.append(idValue), let firstValue = ids.value(of: first) {
                problems.add(
                    at: idValue, "\(ClientID.quoted(idValue)) is already the id of ", citing: firstValue,
                    "; section ids must be unique")
                continue
            }
            sections.append(SectionsRequestSection(id: idValue, items: items))
        }

        // Rule: an id that is not a section → 422 (not checked when `sections` itself is unreadable).
        // Entries and sections are numbered alike whenever no problem was found.
        func index(of value: JSONValue) -> Int? {
            guard ClientID.isValid(value, &problems), sectionList != nil else { return nil }
            guard let found = ids.entry(of: value) else {
                problems.add(at: value, "\(ClientID.quoted(value)) is not the id of a section")
                return nil
            }
            return found
        }

        var mode = SectionsMode.multiple
        if let value = root.optional("mode"), let name = value.oneOf(SectionsMode.self, &problems) {
            mode = name
        }
        var collapsible = true
        if let value = root.optional("collapsible"), let flag = value.boolean(&problems) {
            collapsible = flag
        }

        var open: [Int] = []
        if let expanded = root.optional("expanded"), let list = expanded.array(&problems, maxCount: SectionsLimits.maxExpanded) {
            open = list.compactMap(index(of:))
            // Rule: in single mode more than one id in `expanded` → 422 (a repeated id counts once).
            let distinct = Set(open).count
            if mode == .single && distinct > 1 {
                problems.add(at: expanded, "has \(distinct) different ids; in single mode at most one section is open")
            }
        }

        var actions: [SectionsAction] = []
        let toggle = root.optional("toggle")
        let actionList = root.optional("actions")
        if let toggle, let section = index(of: toggle) {
            actions.append(.toggle(section))
        }
        // Rule: both `toggle` and `actions` → 422.
        if toggle != nil, let actionList {
            problems.add(at: actionList, "cannot be sent together with toggle; send one or the other")
        }
        for element in actionList?.array(&problems, maxCount: SectionsLimits.maxActions).map(Array.init) ?? [] {
            guard element.expectObject(&problems),
                  let typeValue = element.required("type", &problems),
                  let type = typeValue.oneOf(SectionsActionType.self, &problems)
            else { continue }
            switch type {
            case .toggle, .expand, .collapse:
                guard let value = element.required("section", &problems), let section = index(of: value) else { continue }
                actions.append(type == .toggle ? .toggle(section) : type == .expand ? .expand(section) : .collapse(section))
            case .expandAll:
                // Rule: `expandAll` in single mode → 422.
                if mode == .single {
                    problems.add(at: typeValue, "expandAll is not allowed in single mode, where at most one section is open")
                    continue
                }
                actions.append(.expandAll)
            case .collapseAll:
                actions.append(.collapseAll)
            }
        }

        guard problems.count == problemsBefore else { return nil }
        self.sections = sections
        self.state = SectionsState(count: sections.count, expanded: open, mode: mode, collapsible: collapsible)
        self.actions = actions
    }
}

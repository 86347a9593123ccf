import TrellisJSON
import TrellisCore

/// The body of `POST /v1/sections/toggle`, ids mapped to section indices.
struct SectionsToggleRequest: FeatureRequest {
    /// The sections' ids and items, echoed in the answer.
    let sections: [SectionsRequestSection]
    let input: SectionsInput

    /// The body's members.
    enum Member: Int, JSONMember {
        case sections, mode, collapsible, expanded, toggle, actions
        static let keys = JSONKeys(Member.self)
    }

    /// A section's members.
    enum SectionMember: Int, JSONMember {
        case id, items
        static let keys = JSONKeys(SectionMember.self)
    }

    /// An action's members.
    enum ActionMember: Int, JSONMember {
        case type, section
        static let keys = JSONKeys(ActionMember.self)
    }

    init?(reading root: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        let problemsBefore = problems.count
        guard root.expectObject(&problems) else { return nil }
        let members = root.fields(Member.self)

        var sections: [SectionsRequestSection] = []
        let sectionsValue = members.required(Member.sections, &problems)
        let sectionList = sectionsValue?.array(&problems, maxCount: SectionsLimits.maxSections)
        // Section ids by index, compared on the parsed document (no String or Dictionary entry per id).
        var ids = IDTable(in: root, expectedCount: sectionList == nil ? 0 : sectionsValue?.count ?? 0)
        for element in sectionList.map(Array.init) ?? [] {
            guard element.expectObject(&problems) else { continue }
            let section = element.fields(SectionMember.self)
            let idValue = section.required(SectionMember.id, &problems).flatMap { ClientID.isValid($0, &problems) ? $0 : nil }
            let items = section[SectionMember.items].flatMap { $0.isNull || $0.array(&problems) == nil ? nil : $0 }
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
        if let value = members.optional(Member.mode), let name = value.oneOf(SectionsMode.self, &problems) {
            mode = name
        }
        var collapsible = true
        if let value = members.optional(Member.collapsible), let flag = value.boolean(&problems) {
            collapsible = flag
        }

        var open: [Int] = []
        if let expanded = members.optional(Member.expanded), let list = expanded.array(&problems, maxCount: SectionsLimits.maxExpanded) {
            open = list.compactMap(index(of:))
            // Rule: in single mode more than one id in `expanded` → 422 (a repeated id counts once).
            let distinct = Set(open).count
            if mode == .single && distinct > 1 {
                problems.add(at: expanded, "has \(distinct) different ids; in single mode at most one section is open")
            }
        }

        var actions: [SectionsAction] = []
        let toggle = members.optional(Member.toggle)
        let actionList = members.optional(Member.actions)
        if let toggle, let section = index(of: toggle) {
            actions.append(.toggle(section))
        }
        // Rule: both `toggle` and `actions` → 422.
        if toggle != nil, let actionList {
            problems.add(at: actionList, "cannot be sent together with toggle; send one or the other")
        }
        for element in actionList?.array(&problems, maxCount: SectionsLimits.maxActions).map(Array.init) ?? [] {
            guard element.expectObject(&problems) else { continue }
            let action = element.fields(ActionMember.self)
            guard let typeValue = action.required(ActionMember.type, &problems),
                  let type = typeValue.oneOf(SectionsActionType.self, &problems)
            else { continue }
            switch type {
            case .toggle, .expand, .collapse:
                guard let value = action.required(ActionMember.section, &problems), let section = index(of: value) else { continue }
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
        input = SectionsInput(
            state: SectionsState(count: sections.count, expanded: open, mode: mode, collapsible: collapsible), actions: actions)
    }
}

import TrellisCore
import TrellisJSON

/// A value's spelling in requests and answers: the API alone names the core's enums.
protocol WireNamed: CaseIterable {
    var wireName: String { get }
}

extension JSONValue {
    /// One of an enumeration's wire names.
    func oneOf<E: WireNamed>(_ type: E.Type, _ problems: inout Problems) -> E? {
        guard let text = string, let value = E.allCases.first(where: { $0.wireName == text }) else {
            problems.add(at: self, "must be one of " + E.allCases.map { "\"\($0.wireName)\"" }.joined(separator: ", "))
            return nil
        }
        return value
    }
}

extension OutlineSearchMode: WireNamed {
    var wireName: String {
        switch self {
        case .substring: "substring"
        case .prefix: "prefix"
        case .words: "words"
        }
    }
}

extension FlowAlignment: WireNamed {
    var wireName: String {
        switch self {
        case .leading: "leading"
        case .center: "center"
        case .trailing: "trailing"
        case .spaceBetween: "spaceBetween"
        case .spaceAround: "spaceAround"
        case .spaceEvenly: "spaceEvenly"
        }
    }
}

extension FlowRowAlignment: WireNamed {
    var wireName: String {
        switch self {
        case .top: "top"
        case .center: "center"
        case .bottom: "bottom"
        }
    }
}

extension FlowDirection: WireNamed {
    var wireName: String {
        switch self {
        case .ltr: "ltr"
        case .rtl: "rtl"
        }
    }
}

extension FlowLineBreaking: WireNamed {
    var wireName: String {
        switch self {
        case .greedy: "greedy"
        case .balanced: "balanced"
        }
    }
}

extension SectionIcon: WireNamed {
    var wireName: String {
        switch self {
        case .chevronUp: "chevron.up"
        case .chevronDown: "chevron.down"
        }
    }
}

extension SectionsMode: WireNamed {
    var wireName: String {
        switch self {
        case .multiple: "multiple"
        case .single: "single"
        }
    }
}

extension DrawerAction: WireNamed {
    var wireName: String {
        switch self {
        case .toggle: "toggle"
        case .open: "open"
        case .close: "close"
        case .tapMask: "tapMask"
        }
    }
}

extension DrawerEdge: WireNamed {
    var wireName: String {
        switch self {
        case .leading: "leading"
        case .trailing: "trailing"
        }
    }
}

extension DrawerLayoutDirection: WireNamed {
    var wireName: String {
        switch self {
        case .ltr: "ltr"
        case .rtl: "rtl"
        }
    }
}

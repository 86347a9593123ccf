import TrellisCore

// The sections' wire names (`mode`, and `icon` in the answer); the actions' types are `SectionsActionType`.

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

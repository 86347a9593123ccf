import TrellisCore

// The flow layout's wire names (`alignment`, `rowAlignment`, `direction`, `lineBreaking`).

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

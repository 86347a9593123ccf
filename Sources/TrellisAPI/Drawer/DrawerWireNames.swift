import TrellisCore

// The drawer's wire names (`action`, `edge`, `layoutDirection`).

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

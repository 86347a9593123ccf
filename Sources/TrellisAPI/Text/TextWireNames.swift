import TrellisText

// The text features' wire names (`font.style`): CSS's keywords.

extension FontStyle: WireNamed {
    var wireName: String {
        switch self {
        case .normal: "normal"
        case .italic: "italic"
        case .oblique: "oblique"
        }
    }
}

/// `font.opticalSizing`: CSS font-optical-sizing.
enum OpticalSizing: WireNamed {
    case auto, none

    var wireName: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        }
    }
}

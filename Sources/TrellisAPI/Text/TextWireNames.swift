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

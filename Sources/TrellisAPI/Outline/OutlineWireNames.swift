import TrellisCore

// The outline search's wire names (`search.mode`).

extension OutlineSearchMode: WireNamed {
    var wireName: String {
        switch self {
        case .substring: "substring"
        case .prefix: "prefix"
        case .words: "words"
        }
    }
}

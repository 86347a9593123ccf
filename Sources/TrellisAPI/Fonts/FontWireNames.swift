import TrellisText

// The fonts' wire names (`format`): CSS `@font-face src: format()`'s keywords.

extension FontFormat: WireNamed {
    var wireName: String {
        switch self {
        case .truetype: "truetype"
        case .opentype: "opentype"
        case .collection: "collection"
        case .woff: "woff"
        case .woff2: "woff2"
        }
    }
}

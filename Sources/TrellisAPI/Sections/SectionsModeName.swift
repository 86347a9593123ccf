import TrellisCore

/// `mode`: the request's spelling of SectionsMode.
enum SectionsModeName: String, CaseIterable {
    case multiple
    case single

    var mode: SectionsMode {
        switch self {
        case .multiple: .multiple
        case .single: .single
        }
    }
}

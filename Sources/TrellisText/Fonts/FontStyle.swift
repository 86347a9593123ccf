/// The requested font style (CSS `font-style`); oblique is matched as italic.
public enum FontStyle: Hashable, Sendable, CaseIterable {
    case normal, italic, oblique

    /// Rule: faces are italic (italic or oblique bit) or not, so oblique asks for italic.
    var wantsItalic: Bool { self != .normal }
}

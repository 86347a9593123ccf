import CHarfBuzzShim

/// Faces compared by identity, with their settings; the key holds them, so no other face can take a cached face's
/// identity.
struct FontKey: Hashable, Sendable {
    var faces: [FontFace]
    var settings: [FaceSettings]
    var scale: Int32
    var spacing: TextSpacing = .none

    static func == (a: FontKey, b: FontKey) -> Bool {
        a.scale == b.scale && a.spacing == b.spacing && a.faces.count == b.faces.count && zip(a.faces, b.faces).allSatisfy { $0 === $1 }
            && a.settings == b.settings
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(scale)
        hasher.combine(spacing)
        for face in faces { hasher.combine(ObjectIdentifier(face)) }
        hasher.combine(settings)
    }
}

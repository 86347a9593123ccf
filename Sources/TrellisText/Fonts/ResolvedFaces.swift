/// The faces a family list resolves to when a request declares `@font-face` rules: each entry's faces in fallback
/// order with their settings, and which is the primary face.
public struct ResolvedFaces: Sendable {
    public var faces: [FontFace] = []
    public var settings: [FaceSettings] = []
    public var primary = 0

    public init() {}

    mutating func append(_ face: FontFace, _ setting: FaceSettings) {
        if zip(faces, settings).contains(where: { $0.0 === face && $0.1 == setting }) { return }
        faces.append(face)
        settings.append(setting)
    }
}

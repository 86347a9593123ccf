import CHarfBuzzShim

/// Faces by their serial numbers (`FontFace.serial`, never reused in the process), with their settings. Rule: a key
/// does not hold its faces, so the widths and paragraphs kept under it keep no font alive: an uploaded font the store
/// evicts is freed even while the caches still hold entries for it (they only age out), and no later face can take its
/// serial.
struct FontKey: Hashable, Sendable {
    var faces: [UInt64]
    var settings: [FaceSettings]
    var scale: Int32
    var spacing: TextSpacing = .none
}

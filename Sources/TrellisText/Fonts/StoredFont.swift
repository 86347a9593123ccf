/// A font file a client stored: its id and its format and size as sent, the sanitized files its faces shape
/// with (OTS's output, plain sfnts: one for a single font, one per face for a collection), and its faces by index.
public final class StoredFont: Sendable {
    public let id: FontID
    public let format: FontFormat
    /// The length of the file as the client sent it.
    public let sentBytes: Int
    /// OTS's output: what the faces read (face i reads face 0 of files[i], or face i of the one file).
    public let files: [FontFile]
    /// Every face of the file, by its index in the file (a collection has several).
    public let faces: [FontFace]

    /// Rule: a collection has at most this many faces (OpenType allows 65,535; each is sanitized and kept on its own).
    public static let maxFaces = 16
    /// Rule: memory a face costs besides the file's bytes (HarfBuzz's face object, its lazily made
    /// table accelerators, the facts and axes Trellis reads): the store counts this much per face.
    public static let faceOverheadBytes = 64 << 10

    /// nil without files, or when a file holds no face HarfBuzz can use (or more than one, unless it is the only file).
    public init?(id: FontID, format: FontFormat, sentBytes: Int, files: [FontFile]) {
        var faces: [FontFace] = []
        if files.count == 1, let file = files.first {
            let count = file.faceCount
            guard count > 0, count <= Self.maxFaces else { return nil }
            for index in 0..<count {
                guard let face = FontFace(file: file, index: index) else { return nil }
                faces.append(face)
            }
        } else {
            guard !files.isEmpty, files.count <= Self.maxFaces else { return nil }
            for file in files {
                guard file.faceCount == 1, let face = FontFace(file: file, index: 0) else { return nil }
                faces.append(face)
            }
        }
        self.id = id
        self.format = format
        self.sentBytes = sentBytes
        self.files = files
        self.faces = faces
    }

    /// Rule: the number of faces a collection's header declares (numFonts, a 32-bit count at offset 8); nil when
    /// the bytes are not a collection's header.
    public static func collectionFaceCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard FontFormat.sniff(bytes) == .collection, bytes.count >= 12 else { return nil }
        return (8..<12).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    /// What the store counts for this font: the sanitized bytes and each face's overhead.
    public var memoryBytes: Int { files.reduce(0) { $0 + $1.byteCount } + faces.count * Self.faceOverheadBytes }
}

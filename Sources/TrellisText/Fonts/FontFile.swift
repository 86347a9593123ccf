import CHarfBuzzShim
#if canImport(Glibc)
import Glibc
#endif

/// A whole font file mapped read-only (the pages stay the file's, loaded as HarfBuzz reads them),
/// shared by its faces; unmapped when it and every face made from it are gone.
public final class FontFile: @unchecked Sendable {
    let blob: OpaquePointer

    /// Takes over a read-only mapping of a whole file (from `mmap`); nil when memory ran out (it is then unmapped).
    public init?(adoptingMapping base: UnsafeMutableRawPointer, length: Int) {
        guard let blob = tfont_blob_adopt_mapping(base, length) else { return nil }
        self.blob = blob
    }

    /// Takes over `length` bytes at `base`, allocated with malloc (a font held in memory); nil when it is empty,
    /// larger than 4 GiB or memory ran out (the bytes are then freed).
    public init?(adoptingMemory base: UnsafeMutableRawPointer, length: Int) {
        guard let blob = tfont_blob_adopt_memory(base, length) else { return nil }
        self.blob = blob
    }

    /// A copy of a whole font file's bytes held in memory; nil when it is empty, larger than 4 GiB or memory ran out.
    public convenience init?(copying bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress, let copy = malloc(bytes.count) else { return nil }
        copy.copyMemory(from: base, byteCount: bytes.count)
        self.init(adoptingMemory: copy, length: bytes.count)
    }

    /// The file's bytes, valid while the file lives.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var length = 0
        let base = tfont_blob_data(blob, &length)
        return try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    /// The file's length in bytes.
    public var byteCount: Int {
        var length = 0
        _ = tfont_blob_data(blob, &length)
        return length
    }

    deinit {
        tfont_blob_destroy(blob)
    }

    /// The faces in the file (a collection has several); 0 when it is not a font.
    public var faceCount: Int { Int(tfont_blob_face_count(blob)) }
}

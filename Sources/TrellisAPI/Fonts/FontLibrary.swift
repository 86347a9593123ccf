import TrellisText

/// The fonts clients upload: each file checked against its id, sanitized by OTS (`FontSanitizer`), read by
/// HarfBuzz and kept in the bounded `FontStore` (and, with a directory, on disk across restarts).
public final class FontLibrary: Sendable {
    public let store: FontStore
    public let sanitizer: FontSanitizer
    public let directory: FontStoreDirectory?
    /// Rule: the largest font file accepted, as sent (`--max-font-bytes`); 413 past it.
    public let maxFontBytes: Int

    /// Rule: OTS's output (WOFF and WOFF2 decoded) is at most 4 × the largest file accepted, and never more than
    /// the whole store.
    public var sanitizedLimit: Int { min(max(4 * maxFontBytes, 1 << 20), store.capacity) }

    public static let defaultMaxFontBytes = 8 << 20
    public static let defaultStoreBytes = 64 << 20

    public init(
        storeBytes: Int = FontLibrary.defaultStoreBytes, maxFontBytes: Int = FontLibrary.defaultMaxFontBytes,
        sanitizer: FontSanitizer = FontSanitizer(), directory: FontStoreDirectory? = nil
    ) {
        store = FontStore(capacity: storeBytes)
        self.maxFontBytes = maxFontBytes
        self.sanitizer = sanitizer
        self.directory = directory
    }

    /// What storing a file did.
    public enum Stored: Sendable {
        /// New: sanitized and stored now.
        case created(StoredFont)
        /// It was stored already (its bytes were not sanitized again).
        case existing(StoredFont)

        public var font: StoredFont {
            switch self {
            case .created(let font), .existing(let font): font
            }
        }
    }

    /// Why a file was not stored.
    public enum Refusal: Error, Equatable, Sendable {
        /// Larger than `maxFontBytes` as sent.
        case tooLarge(limit: Int)
        /// The SHA-256 of the bytes is not the id they were sent to.
        case idMismatch(sent: FontID, actual: FontID)
        /// Not a font file Chromium would use: OTS's reasons, or why HarfBuzz could not read OTS's output.
        case rejected(String)
        /// Its sanitized form, or its memory in the store, is larger than the limit.
        case tooLargeSanitized(limit: Int)
        /// The server could not sanitize it now (503).
        case unavailable(String)
    }

    /// Stores a font file sent as `bytes` (to `claimed` when the client named its id): its id is the SHA-256 of the
    /// bytes. A file stored already is not sanitized again. `reserve` is asked for the sanitized bytes' memory
    /// before they are read.
    public func store(
        _ bytes: UnsafeRawBufferPointer, claimed: FontID? = nil, deadline: ContinuousClock.Instant? = nil,
        reserve: (Int) -> Bool = { _ in true }
    ) -> Result<Stored, Refusal> {
        guard bytes.count <= maxFontBytes else { return .failure(.tooLarge(limit: maxFontBytes)) }
        guard let digest = ContentDigest.sha256(bytes), let id = FontID(digest: digest) else {
            return .failure(.unavailable("the server is short of memory to hash the font"))
        }
        if let claimed, claimed != id { return .failure(.idMismatch(sent: claimed, actual: id)) }
        if let kept = store.font(id) { return .success(.existing(kept)) }
        guard let format = FontFormat.sniff(bytes) else {
            return .failure(
                .rejected("the file is not a TrueType, OpenType, collection, WOFF or WOFF2 font (its signature is unknown)"))
        }
        // Rule: a collection's faces are sanitized one by one, at most StoredFont.maxFaces of them.
        let faces = StoredFont.collectionFaceCount(bytes)
        if let faces, faces < 1 || faces > StoredFont.maxFaces {
            return .failure(.rejected("a collection must have 1 to \(StoredFont.maxFaces) faces; this one declares \(faces)"))
        }
        let files: [FontFile]
        switch sanitizer.sanitize(bytes, faces: faces, outputLimit: sanitizedLimit, deadline: deadline, reserve: reserve) {
        case .success(let sanitized): files = sanitized
        case .failure(.refused(let reasons)): return .failure(.rejected(reasons))
        case .failure(.tooLarge(let limit)): return .failure(.tooLargeSanitized(limit: limit))
        case .failure(.exceededLimits(let what)): return .failure(.rejected(what))
        case .failure(.unavailable(let why)): return .failure(.unavailable(why))
        }
        guard let font = StoredFont(id: id, format: format, sentBytes: bytes.count, files: files) else {
            return .failure(
                .rejected("HarfBuzz finds no usable face in the sanitized font (or more than \(StoredFont.maxFaces) faces)"))
        }
        return keep(font, save: true)
    }

    /// Puts a font in the store (and, when `save`, in its directory): created, or the one kept already. Fonts
    /// evicted for it leave the directory too.
    func keep(_ font: StoredFont, save: Bool) -> Result<Stored, Refusal> {
        switch store.insert(font) {
        case .tooLarge:
            return .failure(.tooLargeSanitized(limit: store.capacity))
        case .alreadyStored(let kept):
            return .success(.existing(kept))
        case .stored(let evicted):
            if let directory {
                for old in evicted { directory.remove(old.id) }
                if save { directory.save(font) }
            }
            return .success(.created(font))
        }
    }

    /// Loads the fonts a directory kept (oldest first, so the newest end up most recently used); files that no
    /// longer fit are removed. Returns how many were loaded.
    @discardableResult
    public func loadDirectory() -> Int {
        guard let directory else { return 0 }
        var loaded = 0
        for font in directory.load(maxSanitizedBytes: sanitizedLimit) {
            if case .success(.created) = keep(font, save: false) { loaded += 1 }
        }
        return loaded
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Memory a cache keeps from a budget shared with the requests (the API's HTTPMemoryBudget).
public protocol ShapingCacheBudget: AnyObject, Sendable {
    /// Takes `bytes` when they fit; false (nothing taken) otherwise.
    func reserveForCache(_ bytes: Int) -> Bool
    func releaseFromCache(_ bytes: Int)
}

/// Paragraphs shaped by earlier requests, kept so that a request for the same text in the same font at another
/// width does not shape it again.
///
/// Rule: keyed by what shaping reads: the text, the font (its faces, their settings, the size) and the white-space
/// value (which spaces and line feeds collapse, and what hangs at a line's end); bounded by bytes (each entry counts its arrays, about 27 bytes a scalar with ICU's boundaries, and its
/// text), in two generations of half the capacity each (lookups check both, stores go to the current one, and a
/// full current one becomes the previous one, the older dropped); the bytes it keeps are taken from the memory
/// budget (an entry the budget cannot take is not kept); one request keeps at most a quarter of the capacity, half a
/// generation (at the executable's 256 MiB, about 9,800 paragraphs of 200 characters: a large list's next width
/// shapes next to nothing), so that it turns the generations over at most once and cannot push out what the other
/// clients' requests keep (that takes at least two requests' worth of new paragraphs, a whole generation); keys
/// hash with Swift's per-process random seed.
public final class ShapingCache: Sendable {
    /// Rule: texts are the same key when their UTF-8 bytes are, not when Swift's `==` finds them canonically
    /// equivalent (`é` and `e` with U+0301 are other scalars: other UTF-16 offsets, and shaped otherwise when a face
    /// lacks one form). The key is hashed once (SipHash-1-3 under a key from the process's seed), over the text's bytes, and
    /// that hash serves both generations' lookups: hashing the text as a `String` normalized it first, which cost a
    /// non-ASCII paragraph more than laying it out at a new width.
    struct Key: Hashable, Sendable {
        /// The request's font, one object that every key of the request shares: a key copied or dropped retains or
        /// releases it once (a `FontKey` held here was copied and destroyed field by field through its type's
        /// metadata, which cost a kept paragraph's lookup about a tenth of its layout at a new width).
        let font: Font
        let whiteSpace: WhiteSpace
        let text: String
        let digest: Int

        init(font: Font, whiteSpace: WhiteSpace, text: String) {
            self.font = font
            self.whiteSpace = whiteSpace
            self.text = text
            // SipHash-1-3 of the text's bytes under the process's key, made another for each font and white-space.
            let key = (font.key0, SipHash.processKey.1 ^ Self.code(whiteSpace))
            let utf8 = text.utf8
            let hash =
                utf8.withContiguousStorageIfAvailable { SipHash.hash13(UnsafeRawBufferPointer($0), key: key) }
                ?? Array(utf8).withUnsafeBytes { SipHash.hash13($0, key: key) }
            digest = Int(truncatingIfNeeded: hash)
        }

        private static func code(_ whiteSpace: WhiteSpace) -> UInt64 {
            switch whiteSpace {
            case .normal: 1
            case .preWrap: 2
            case .nowrap: 3
            case .pre: 4
            case .preLine: 5
            case .breakSpaces: 6
            }
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.whiteSpace == b.whiteSpace && (a.font === b.font || a.font.key == b.font.key)
                && Self.sameBytes(a.text, b.text)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        static func sameBytes(_ a: String, _ b: String) -> Bool {
            let x = a.utf8
            let y = b.utf8
            guard x.count == y.count else { return false }
            let same = x.withContiguousStorageIfAvailable { p in
                y.withContiguousStorageIfAvailable { q in
                    guard let p = p.baseAddress, let q = q.baseAddress else { return true }
                    return memcmp(p, q, x.count) == 0
                }
            }
            return (same ?? nil) ?? x.elementsEqual(y)
        }
    }

    struct Generation {
        var entries: [Key: ShapedParagraph] = [:]
        var bytes = 0
    }

    struct State {
        var current = Generation()
        var previous = Generation()
    }

    private let state = Mutex(State())
    public let byteCapacity: Int
    private let budget: (any ShapingCacheBudget)?

    public init(byteCapacity: Int = 64 << 20, budget: (any ShapingCacheBudget)? = nil) {
        self.byteCapacity = max(0, byteCapacity)
        self.budget = budget
    }

    deinit {
        let kept = state.withLock { $0.current.bytes + $0.previous.bytes }
        budget?.releaseFromCache(kept)
    }

    /// Rule: what one request may add.
    public var perRequestByteCapacity: Int { byteCapacity / 4 }

    /// What one request may still add to the cache, counted down as it stores.
    public struct Allowance: Sendable {
        var bytes: Int
    }

    /// A request's allowance: a quarter of the capacity.
    public func allowance() -> Allowance { Allowance(bytes: perRequestByteCapacity) }

    /// The bytes an entry counts for: its arrays (its scalars', its bidi runs' and its face runs') and a fixed overhead, and its text.
    static func entryBytes(_ paragraph: ShapedParagraph, text: String) -> Int {
        27 * paragraph.count + 16 * paragraph.runStarts.count + 8 * paragraph.faceRuns.count + text.utf8.count + 640
    }

    /// A request's font as the cache keys it: hashed once for all its paragraphs, and shared by their keys.
    final class Font: Sendable {
        let key: FontKey
        let hash: Int
        /// The first half of the key its texts are hashed under: the process's, made another for this font.
        let key0: UInt64

        init(_ key: FontKey) {
            self.key = key
            hash = key.hashValue
            key0 = SipHash.processKey.0 ^ UInt64(truncatingIfNeeded: hash)
        }
    }

    /// The last request's font: a request in the same font takes the same object, so that its keys and the ones kept
    /// compare their fonts by identity (comparing the faces and settings cost each lookup about a tenth of it).
    private let lastFont = Mutex<Font?>(nil)

    /// A request's font as the cache keys it.
    func font(_ key: FontKey) -> Font {
        lastFont.withLock { last in
            if let last, last.key == key { return last }
            let made = Font(key)
            last = made
            return made
        }
    }

    /// The key of `text` in `font` with `whiteSpace`: made once per paragraph, for the lookup and the store.
    static func key(_ text: String, font: Font, whiteSpace: WhiteSpace) -> Key {
        Key(font: font, whiteSpace: whiteSpace, text: text)
    }

    func paragraph(_ key: Key) -> ShapedParagraph? {
        state.withLock { $0.current.entries[key] ?? $0.previous.entries[key] }
    }

    /// Keeps `paragraph` under `key` when the request's allowance and the budget take it.
    func store(_ paragraph: ShapedParagraph, key: Key, _ allowance: inout Allowance) {
        let bytes = Self.entryBytes(paragraph, text: key.text)
        let generation = byteCapacity / 2
        guard bytes <= allowance.bytes, bytes <= generation, budget?.reserveForCache(bytes) ?? true else { return }
        allowance.bytes -= bytes
        let dropped: Int = state.withLock { cache in
            guard cache.current.entries[key] == nil, cache.previous.entries[key] == nil else { return bytes }
            var dropped = 0
            if cache.current.bytes + bytes > generation {
                dropped = cache.previous.bytes
                cache.previous = cache.current
                cache.current = Generation()
            }
            cache.current.entries[key] = paragraph
            cache.current.bytes += bytes
            return dropped
        }
        if dropped > 0 { budget?.releaseFromCache(dropped) }
    }

    /// Paragraphs kept in both generations (for tests and metrics).
    public var count: Int { state.withLock { $0.current.entries.count + $0.previous.entries.count } }
    /// The bytes they count for.
    public var bytes: Int { state.withLock { $0.current.bytes + $0.previous.bytes } }
}

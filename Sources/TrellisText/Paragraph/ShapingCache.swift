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
/// value (which spaces and line feeds collapse, and what hangs at a line's end); bounded by bytes (each entry counts its arrays, about 27 bytes a scalar with ICU's boundaries and 8 a kept break opportunity, and its
/// text), in two generations of half the capacity each (lookups check both, stores go to the current one, and a
/// full current one becomes the previous one, the older dropped); the bytes it keeps are taken from the memory
/// budget (an entry the budget cannot take is not kept); one request keeps at most a quarter of the capacity, half a
/// generation (at the executable's 256 MiB, about 10,200 paragraphs of 200 characters: a large list's next width
/// shapes next to nothing), so that it turns the generations over at most once and cannot push out what the other
/// clients' requests keep (that takes at least two requests' worth of new paragraphs, a whole generation); keys
/// hash with Swift's per-process random seed.
public final class ShapingCache: Sendable {
    /// Rule: texts are the same key when their UTF-8 bytes are, not when Swift's `==` finds them canonically
    /// equivalent (`é` and `e` with U+0301 are other scalars: other UTF-16 offsets, and shaped otherwise when a face
    /// lacks one form). The key is hashed once (SipHash-1-3 under a key from the process's seed), over the text's bytes, and
    /// that hash serves both generations' lookups: hashing the text as a `String` normalized it first, which cost a
    /// non-ASCII paragraph more than laying it out at a new width. A key holds no text: a lookup compares the bytes it
    /// is given (a list's, where the request keeps them, with no `String` made) with the kept entry's.
    struct Key: Sendable {
        /// The request's font, one object that every key of the request shares: a key copied or dropped retains or
        /// releases it once (a `FontKey` held here was copied and destroyed field by field through its type's
        /// metadata, which cost a kept paragraph's lookup about a tenth of its layout at a new width).
        let font: Font
        let whiteSpace: WhiteSpace
        let digest: UInt64

        init(font: Font, whiteSpace: WhiteSpace, text: UnsafeRawBufferPointer) {
            self.font = font
            self.whiteSpace = whiteSpace
            // SipHash-1-3 of the text's bytes under the process's key, made another for each font and white-space.
            digest = SipHash.hash13(text, key: (font.key0, SipHash.processKey.1 ^ Self.code(whiteSpace)))
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

        /// Whether `entry` is kept under this key for `text`.
        func matches(_ entry: Entry, _ text: UnsafeRawBufferPointer) -> Bool {
            entry.whiteSpace == whiteSpace && (entry.font === font || entry.font.key == font.key)
                && entry.text.withUnsafeBytes { kept in
                    guard kept.count == text.count else { return false }
                    guard let a = kept.baseAddress, let b = text.baseAddress else { return true }
                    return memcmp(a, b, text.count) == 0
                }
        }
    }

    /// A text's key with the text: what a caller that holds the text as a `String` looks up and stores.
    struct TextKey: Sendable {
        let key: Key
        let text: String
    }

    /// A paragraph kept: its key's parts and its text's bytes.
    struct Entry {
        let font: Font
        let whiteSpace: WhiteSpace
        let text: [UInt8]
        let paragraph: ShapedParagraph
    }

    /// One generation: its entries, found by an open-addressed table of their keys' digests (the digest is a keyed
    /// hash, so its low bits pick the slot; linear probing, at most half full).
    struct Generation {
        var entries: [Entry] = []
        /// Per slot: the digest and the entry's index plus 1 (0: empty).
        var slots: [Slot] = []
        var bytes = 0

        struct Slot {
            var digest: UInt64
            var entry: Int32
        }

        func find(_ key: Key, _ text: UnsafeRawBufferPointer) -> ShapedParagraph? {
            guard !slots.isEmpty else { return nil }
            return slots.withUnsafeBufferPointer { slots in
                let mask = slots.count - 1
                var i = Int(truncatingIfNeeded: key.digest) & mask
                while slots[i].entry != 0 {
                    if slots[i].digest == key.digest {
                        let entry = entries[Int(slots[i].entry) - 1]
                        if key.matches(entry, text) { return entry.paragraph }
                    }
                    i = (i + 1) & mask
                }
                return nil
            }
        }

        mutating func insert(_ entry: Entry, digest: UInt64) {
            entries.append(entry)
            if entries.count * 2 > slots.count {
                var grown = [Slot](repeating: Slot(digest: 0, entry: 0), count: max(64, slots.count * 2))
                for slot in slots where slot.entry != 0 { Self.place(slot, in: &grown) }
                slots = grown
            }
            Self.place(Slot(digest: digest, entry: Int32(entries.count)), in: &slots)
        }

        private static func place(_ slot: Slot, in slots: inout [Slot]) {
            let mask = slots.count - 1
            var i = Int(truncatingIfNeeded: slot.digest) & mask
            while slots[i].entry != 0 { i = (i + 1) & mask }
            slots[i] = slot
        }
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

    /// What one request may still add to the cache, counted down as it stores (atomically: the parts of a list laid out
    /// on several threads at once draw on their request's one allowance).
    public final class Allowance: Sendable {
        let left: Atomic<Int>

        init(bytes: Int) { left = Atomic(bytes) }

        /// Takes `count` bytes when that many are left; false (nothing taken) otherwise.
        func take(_ count: Int) -> Bool {
            var current = left.load(ordering: .relaxed)
            while count <= current {
                let (exchanged, original) = left.compareExchange(expected: current, desired: current - count, ordering: .relaxed)
                if exchanged { return true }
                current = original
            }
            return false
        }

        func giveBack(_ count: Int) { left.add(count, ordering: .relaxed) }
    }

    /// A request's allowance: a quarter of the capacity.
    public func allowance() -> Allowance { Allowance(bytes: perRequestByteCapacity) }

    /// The bytes an entry counts for: its arrays (its scalars', its bidi runs', its face runs', its bidi paragraphs' and its kept
    /// break opportunities' room) and a fixed overhead, and its text.
    static func entryBytes(_ paragraph: ShapedParagraph, textBytes: Int) -> Int {
        27 * paragraph.count + 16 * paragraph.runStarts.count + 8 * paragraph.faceRuns.count + 8 * paragraph.bidiParagraphs.count
            + 8 * paragraph.keptBreaks.capacity + textBytes + 640
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
    static func key(_ text: String, font: Font, whiteSpace: WhiteSpace) -> TextKey {
        var text = text
        let key = text.withUTF8 { Key(font: font, whiteSpace: whiteSpace, text: UnsafeRawBufferPointer($0)) }
        return TextKey(key: key, text: text)
    }

    /// The key of the text whose UTF-8 bytes are `text`.
    static func key(utf8 text: UnsafeRawBufferPointer, font: Font, whiteSpace: WhiteSpace) -> Key {
        Key(font: font, whiteSpace: whiteSpace, text: text)
    }

    func paragraph(_ key: TextKey) -> ShapedParagraph? {
        var text = key.text
        return text.withUTF8 { paragraph(key.key, utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The paragraph kept for the text whose UTF-8 bytes are `text`, under `key` (its key).
    func paragraph(_ key: Key, utf8 text: UnsafeRawBufferPointer) -> ShapedParagraph? {
        state.withLock { $0.current.find(key, text) ?? $0.previous.find(key, text) }
    }

    func store(_ paragraph: ShapedParagraph, key: TextKey, _ allowance: Allowance) {
        var text = key.text
        text.withUTF8 { store(paragraph, key: key.key, utf8: UnsafeRawBufferPointer($0), allowance) }
    }

    /// Keeps `paragraph`, shaped from the text whose UTF-8 bytes are `text`, under `key` when the request's allowance
    /// and the budget take it.
    func store(_ paragraph: ShapedParagraph, key: Key, utf8 text: UnsafeRawBufferPointer, _ allowance: Allowance) {
        let bytes = Self.entryBytes(paragraph, textBytes: text.count)
        let generation = byteCapacity / 2
        guard bytes <= generation, allowance.take(bytes) else { return }
        guard budget?.reserveForCache(bytes) ?? true else {
            allowance.giveBack(bytes)
            return
        }
        let entry = Entry(font: key.font, whiteSpace: key.whiteSpace, text: [UInt8](text), paragraph: paragraph)
        let dropped: Int = state.withLock { cache in
            guard cache.current.find(key, text) == nil, cache.previous.find(key, text) == nil else { return bytes }
            var dropped = 0
            if cache.current.bytes + bytes > generation {
                dropped = cache.previous.bytes
                cache.previous = cache.current
                cache.current = Generation()
            }
            cache.current.insert(entry, digest: key.digest)
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

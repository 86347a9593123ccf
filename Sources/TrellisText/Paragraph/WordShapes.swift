import CHarfBuzzShim

/// The shaping of each space-separated word one shaper (one request, one font) has shaped, so that every other
/// occurrence of the word takes its advances and flags without shaping it again.
///
/// Rule (Blink's word-by-word shaping, `FontData::CanShapeWordByWord` and its `CachingWordShaper`): where a face's
/// layout tables never involve the space glyph (`tfont_font_shapes_words_alone`), a run shapes as its words and
/// spaces shaped apart, so a piece of one face, script and direction is put together from its words' shapings. Only
/// in scripts HarfBuzz shapes with its default shaper, which reads no context beyond the shaped text (no joining),
/// and never splitting a grapheme cluster: a piece splits before and after each U+0020 that starts a grapheme cluster
/// where the scalar after it does too. A word starting with a mark (a dotted circle may depend on what precedes it)
/// is shaped in place and not kept.
///
/// Bounded: at most `maxWords` words and `maxScalars` scalars kept (13 bytes a scalar, 32 bytes a word and its
/// table slots: under 400 KiB), a word of at most `maxWordScalars`; past the bounds words are shaped, not kept.
/// Keys hash with SipHash-1-3 under a key from Swift's per-process random seed.
struct WordShapes {
    static let maxWords = 4_096
    static let maxScalars = 16_384
    static let maxWordScalars = 64

    private struct Entry {
        var hash: Int
        var start: Int32
        var count: Int32
        var face: Int32
        var rtl: UInt32
        var script: UInt32
    }

    private var entries: [Entry] = []
    /// Open addressing: an entry's index plus 1 (0: empty), a power of two at least twice the entries.
    private var slots: [Int32] = []
    private var scalars: [UInt32] = []
    private var advances: [Int64] = []
    private var flags: [UInt8] = []

    private static func hash(_ text: UnsafeBufferPointer<UInt32>, _ face: Int, _ rtl: UInt8, _ script: UInt32) -> Int {
        // SipHash-1-3 (as `Hasher`) over words packed here, under a key from the process's seed.
        var hasher = SipHash.State(key: SipHash.processKey)
        hasher.combine(UInt64(truncatingIfNeeded: face) << 40 | UInt64(rtl) << 32 | UInt64(script))
        // A word of scalars below U+0100 (most Latin words) eight scalars a word of the hasher, any other two; the
        // count last. Which way a word is hashed depends on its scalars alone, so it is found the way it was kept.
        var i = 0
        if !text.contains(where: { $0 > 0xFF }) {
            while i < text.count {
                var packed: UInt64 = 0
                let end = min(i + 8, text.count)
                while i < end {
                    packed = packed << 8 | UInt64(text[i])
                    i += 1
                }
                hasher.combine(packed)
            }
            return Int(truncatingIfNeeded: hasher.finalize(UInt64(text.count)))
        }
        while i + 1 < text.count {
            hasher.combine(UInt64(text[i]) << 32 | UInt64(text[i + 1]))
            i += 2
        }
        return Int(truncatingIfNeeded: hasher.finalize(UInt64(i < text.count ? text[i] : 0) << 32 | UInt64(text.count)))
    }

    /// The last U+0020 found alone: its face, direction and script, and where its shaping is kept (a piece's every
    /// other word is one, found without hashing).
    private var space: (face: Int, rtl: UInt8, script: UInt32, kept: Int)?

    /// Where the shaping of `word` is kept (its advances and flags at `advances[start ..< start + word.count]`).
    mutating func find(_ word: UnsafeBufferPointer<UInt32>, face: Int, rtl: UInt8, script: UInt32) -> Int? {
        let alone = word.count == 1 && word[0] == WhiteSpaceProcessing.space
        if alone, let space, space.face == face, space.rtl == rtl, space.script == script { return space.kept }
        guard let kept = lookUp(word, face: face, rtl: rtl, script: script) else { return nil }
        if alone { space = (face, rtl, script, kept) }
        return kept
    }

    private func lookUp(_ word: UnsafeBufferPointer<UInt32>, face: Int, rtl: UInt8, script: UInt32) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let hash = Self.hash(word, face, rtl, script)
        var slot = hash & mask
        while slots[slot] != 0 {
            let entry = entries[Int(slots[slot]) - 1]
            if entry.hash == hash && Int(entry.count) == word.count && entry.face == Int32(face) && entry.rtl == UInt32(rtl)
                && entry.script == script && Self.equal(scalars, Int(entry.start), word)
            {
                return Int(entry.start)
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Copies the shaping kept at `kept` (from `find`) for a word of `count` scalars.
    mutating func copy(from kept: Int, count: Int, advances to: UnsafeMutablePointer<Int64>, flags toFlags: UnsafeMutablePointer<UInt8>) {
        advances.withUnsafeBufferPointer { from in
            guard let base = from.baseAddress else { return }
            to.update(from: base + kept, count: count)
        }
        flags.withUnsafeBufferPointer { from in
            guard let base = from.baseAddress else { return }
            toFlags.update(from: base + kept, count: count)
        }
    }

    private static func equal(_ kept: [UInt32], _ start: Int, _ word: UnsafeBufferPointer<UInt32>) -> Bool {
        for i in 0..<word.count where kept[start + i] != word[i] { return false }
        return true
    }

    /// Keeps `word`'s shaping (advances and flags from the buffers given) when the bounds allow.
    mutating func keep(
        _ word: UnsafeBufferPointer<UInt32>, face: Int, rtl: UInt8, script: UInt32,
        advances wordAdvances: UnsafeBufferPointer<Int64>, flags wordFlags: UnsafeBufferPointer<UInt8>
    ) {
        guard entries.count < Self.maxWords, scalars.count + word.count <= Self.maxScalars else { return }
        if slots.count < 2 * (entries.count + 1) {
            let capacity = max(256, slots.count * 2)
            slots = [Int32](repeating: 0, count: capacity)
            for (index, entry) in entries.enumerated() {
                var slot = entry.hash & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Int32(index + 1)
            }
        }
        let mask = slots.count - 1
        let hash = Self.hash(word, face, rtl, script)
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        entries.append(Entry(hash: hash, start: Int32(scalars.count), count: Int32(word.count), face: Int32(face), rtl: UInt32(rtl), script: script))
        slots[slot] = Int32(entries.count)
        scalars.append(contentsOf: word)
        advances.append(contentsOf: wordAdvances)
        flags.append(contentsOf: wordFlags)
    }
}

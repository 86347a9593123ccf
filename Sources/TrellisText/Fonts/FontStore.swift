import Synchronization

/// The fonts clients stored, bounded by their memory (`StoredFont.memoryBytes`): the least recently used go
/// first when a new one needs room. Shared by every thread; ids are hashed with Swift's per-process seed.
///
/// Beside the fonts it remembers what requests' declarations resolved to (`declaredFaces`, `remember`), so that a
/// request declaring the same `@font-face` rules again skips reading and resolving them. Rule: a remembered resolution
/// lives only while every font its declaration names is stored: evicting a font forgets, under the same lock, every
/// resolution whose declaration names it, so none holds an evicted font's faces, and a request naming an evicted
/// font reads its declaration again (and is refused at that `src`).
public final class FontStore: Sendable {
    /// The most memory the fonts may hold, in bytes.
    public let capacity: Int
    private let state: Mutex<State>

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Mutex(State())
    }

    /// What storing a font did.
    public enum Insertion {
        /// It is stored now; these were evicted to make room (least recently used first).
        case stored(evicted: [StoredFont])
        /// It was stored already (the one kept is returned, and counts as used).
        case alreadyStored(StoredFont)
        /// It is larger than the whole store.
        case tooLarge
    }

    /// The font with this id, which counts as used; nil when it is not stored.
    public func font(_ id: FontID) -> StoredFont? {
        state.withLock { $0.use(id) }
    }

    /// Whether a font is stored, without counting as a use.
    public func contains(_ id: FontID) -> Bool {
        state.withLock { $0.slot[id] != nil }
    }

    /// Stores `font`, evicting the least recently used fonts while it would not fit (and forgetting the resolutions
    /// that name them).
    public func insert(_ font: StoredFont) -> Insertion {
        let bytes = font.memoryBytes
        guard bytes <= capacity else { return .tooLarge }
        return state.withLock { state in
            if let kept = state.use(font.id) { return .alreadyStored(kept) }
            var evicted: [StoredFont] = []
            var freed: Set<Int> = []
            while state.bytes + bytes > capacity, let removed = state.removeLeastRecent() {
                evicted.append(removed.font)
                freed.insert(removed.slot)
            }
            // Before the new font takes a freed slot: no remembered resolution may name a slot another font reuses.
            if !freed.isEmpty { state.forgetDeclared(naming: freed) }
            state.add(font, bytes: bytes)
            return .stored(evicted: evicted)
        }
    }

    /// Rule: the remembered resolutions take at most this many bytes (as `rememberedBytes` counts them), in two
    /// generations of half of it each (a resolution used from the older one moves to the newer); one that would count
    /// more than a sixteenth of it is not remembered.
    public static let declaredCapacity = 1 << 20
    /// The most one remembered resolution may count, its declaration's bytes included (a key builder stops past it).
    public static var maxRememberedBytes: Int { declaredCapacity / 16 }

    /// The faces `key` resolved to, when they are remembered; every font its declaration names counts as used, as
    /// reading the declaration would have counted it.
    public func declaredFaces(_ key: DeclaredFacesKey) -> ResolvedFaces? {
        state.withLock { $0.declaredFaces(key) }
    }

    /// Remembers what `key` resolved to: `fonts` are the stored fonts its declaration names, as the store gave them.
    /// Nothing is remembered when one of them is no longer stored (evicted since, or stored again as another object),
    /// or when it would count more than `maxRememberedBytes`.
    public func remember(_ key: DeclaredFacesKey, _ faces: ResolvedFaces, fonts: [StoredFont]) {
        let bytes = Self.rememberedBytes(key, faces, fonts: fonts.count)
        guard bytes <= Self.maxRememberedBytes else { return }
        state.withLock { state in
            var slots: [Int] = []
            slots.reserveCapacity(fonts.count)
            for font in fonts {
                guard let at = state.slot[font.id], state.entries[at]?.font === font else { return }
                if !slots.contains(at) { slots.append(at) }
            }
            state.rememberDeclared(key, State.Remembered(faces: faces, slots: slots, bytes: bytes), capacity: Self.declaredCapacity)
        }
    }

    /// Rule: what a remembered resolution counts for: the key's bytes (declaration, family, settings), each face's
    /// reference and settings (16 bytes a setting, 8 a unicode range), a slot per font, and 256 bytes of table entry
    /// and array headers, 128 per face.
    static func rememberedBytes(_ key: DeclaredFacesKey, _ faces: ResolvedFaces, fonts: Int) -> Int {
        var bytes = 256 + key.declaration.count + key.family.utf8.count
        bytes += 16 * (key.properties.features.count + key.properties.variations.count) + 8 * fonts
        for settings in faces.settings {
            bytes += 128 + 16 * (settings.variations.count + settings.features.count) + 8 * (settings.unicodeRange?.ranges.count ?? 0)
        }
        return bytes
    }

    /// Resolutions remembered, and the bytes they count (for tests and figures).
    public var declaredCount: Int { state.withLock { $0.declared.count + $0.olderDeclared.count } }
    public var declaredBytes: Int { state.withLock { $0.declaredBytes + $0.olderDeclaredBytes } }

    /// Fonts stored.
    public var count: Int { state.withLock { $0.slot.count } }
    /// Memory they count for.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The fonts from least to most recently used (for tests).
    public var fontsByUse: [StoredFont] {
        state.withLock { state in
            var fonts: [StoredFont] = []
            var at = state.oldest
            while at >= 0, let entry = state.entries[at] {
                fonts.append(entry.font)
                at = entry.newer
            }
            return fonts
        }
    }

    /// A doubly linked list of entries in slots, by use (oldest to newest), and a table from id to slot.
    struct State {
        struct Entry {
            var font: StoredFont
            var bytes: Int
            var older: Int
            var newer: Int
        }
        var entries: [Entry?] = []
        var freeSlots: [Int] = []
        var slot: [FontID: Int] = [:]
        var oldest = -1
        var newest = -1
        var bytes = 0

        /// A remembered resolution: the faces, the slots of the fonts its declaration names, what it counts.
        struct Remembered {
            var faces: ResolvedFaces
            var slots: [Int]
            var bytes: Int
        }
        var declared: [DeclaredFacesKey: Remembered] = [:]
        var declaredBytes = 0
        var olderDeclared: [DeclaredFacesKey: Remembered] = [:]
        var olderDeclaredBytes = 0

        mutating func declaredFaces(_ key: DeclaredFacesKey) -> ResolvedFaces? {
            var found = declared[key]
            if found == nil, let older = olderDeclared.removeValue(forKey: key) {
                olderDeclaredBytes -= older.bytes
                found = older
                rememberDeclared(key, older, capacity: FontStore.declaredCapacity)
            }
            guard let found else { return nil }
            for at in found.slots where entries[at] != nil {
                unlink(at)
                linkNewest(at)
            }
            return found.faces
        }

        mutating func rememberDeclared(_ key: DeclaredFacesKey, _ remembered: Remembered, capacity: Int) {
            if let replaced = declared.removeValue(forKey: key) { declaredBytes -= replaced.bytes }
            if let replaced = olderDeclared.removeValue(forKey: key) { olderDeclaredBytes -= replaced.bytes }
            if declaredBytes + remembered.bytes > capacity / 2 {
                olderDeclared = declared
                olderDeclaredBytes = declaredBytes
                declared = [:]
                declaredBytes = 0
            }
            declared[key] = remembered
            declaredBytes += remembered.bytes
        }

        mutating func forgetDeclared(naming freed: Set<Int>) {
            func keep(_ table: inout [DeclaredFacesKey: Remembered], _ bytes: inout Int) {
                table = table.filter { !$0.value.slots.contains(where: freed.contains) }
                bytes = table.values.reduce(0) { $0 + $1.bytes }
            }
            keep(&declared, &declaredBytes)
            keep(&olderDeclared, &olderDeclaredBytes)
        }

        mutating func use(_ id: FontID) -> StoredFont? {
            guard let at = slot[id], let entry = entries[at] else { return nil }
            unlink(at)
            linkNewest(at)
            return entry.font
        }

        mutating func add(_ font: StoredFont, bytes: Int) {
            let entry = Entry(font: font, bytes: bytes, older: -1, newer: -1)
            let at: Int
            if let reused = freeSlots.popLast() {
                at = reused
                entries[at] = entry
            } else {
                at = entries.count
                entries.append(entry)
            }
            slot[font.id] = at
            self.bytes += bytes
            linkNewest(at)
        }

        /// The least recently used font, removed, and the slot it had.
        mutating func removeLeastRecent() -> (font: StoredFont, slot: Int)? {
            guard oldest >= 0, let entry = entries[oldest] else { return nil }
            let at = oldest
            unlink(at)
            entries[at] = nil
            freeSlots.append(at)
            slot[entry.font.id] = nil
            bytes -= entry.bytes
            return (entry.font, at)
        }

        private mutating func unlink(_ at: Int) {
            guard let entry = entries[at] else { return }
            if entry.older >= 0 { entries[entry.older]?.newer = entry.newer } else { oldest = entry.newer }
            if entry.newer >= 0 { entries[entry.newer]?.older = entry.older } else { newest = entry.older }
            entries[at]?.older = -1
            entries[at]?.newer = -1
        }

        private mutating func linkNewest(_ at: Int) {
            entries[at]?.older = newest
            entries[at]?.newer = -1
            if newest >= 0 { entries[newest]?.newer = at } else { oldest = at }
            newest = at
        }
    }
}

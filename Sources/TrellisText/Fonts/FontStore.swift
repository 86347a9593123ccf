import Synchronization

/// The fonts clients stored, bounded by their memory (`StoredFont.memoryBytes`): the least recently used go
/// first when a new one needs room. Shared by every thread; ids are hashed with Swift's per-process seed.
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

    /// Stores `font`, evicting the least recently used fonts while it would not fit.
    public func insert(_ font: StoredFont) -> Insertion {
        let bytes = font.memoryBytes
        guard bytes <= capacity else { return .tooLarge }
        return state.withLock { state in
            if let kept = state.use(font.id) { return .alreadyStored(kept) }
            var evicted: [StoredFont] = []
            while state.bytes + bytes > capacity, let oldest = state.removeLeastRecent() { evicted.append(oldest) }
            state.add(font, bytes: bytes)
            return .stored(evicted: evicted)
        }
    }

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

        mutating func removeLeastRecent() -> StoredFont? {
            guard oldest >= 0, let entry = entries[oldest] else { return nil }
            let at = oldest
            unlink(at)
            entries[at] = nil
            freeSlots.append(at)
            slot[entry.font.id] = nil
            bytes -= entry.bytes
            return entry.font
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

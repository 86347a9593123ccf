import Synchronization

/// A bounded, thread-safe cache of measured widths, so that repeated labels are measured once.
///
/// Two generations: lookups check both, stores go to the current one; when it holds `capacity`
/// entries or `byteCapacity` bytes of text, it becomes the previous one and the older is dropped.
/// Keys are hashed with Swift's per-process random seed.
public final class MeasureCache: Sendable {
    struct Key: Hashable {
        var font: FontKey
        var text: String
    }

    struct Generations {
        var current: [Key: Double] = [:]
        var previous: [Key: Double] = [:]
        var bytes = 0
    }

    private let state = Mutex(Generations())
    public let capacity: Int
    public let byteCapacity: Int

    public init(capacity: Int = 50_000, byteCapacity: Int = 4 << 20) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
    }

    /// Rule: one request stores at most a sixteenth of a generation, so no request can
    /// push the other clients' labels out (that takes sixteen requests' worth of new labels).
    public var perRequestCapacity: Int { max(1, capacity / 16) }
    public var perRequestByteCapacity: Int { max(1, byteCapacity / 16) }

    /// The bytes an entry counts for: its text and a fixed overhead.
    static func entryBytes(_ text: String) -> Int { text.utf8.count + 64 }

    func width(of text: String, in font: FontKey) -> Double? {
        let key = Key(font: font, text: text)
        return state.withLock { $0.current[key] ?? $0.previous[key] }
    }

    func store(_ width: Double, of text: String, in font: FontKey) {
        let key = Key(font: font, text: text)
        let bytes = Self.entryBytes(text)
        state.withLock { generations in
            if generations.current.count >= capacity || generations.bytes + bytes > byteCapacity {
                generations.previous = generations.current
                generations.current = [:]
                generations.bytes = 0
            }
            if generations.current.updateValue(width, forKey: key) == nil { generations.bytes += bytes }
        }
    }

    /// Entries held in both generations (for tests and metrics).
    public var count: Int { state.withLock { $0.current.count + $0.previous.count } }
}

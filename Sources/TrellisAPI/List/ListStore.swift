import Synchronization
import TrellisJSON
import TrellisText

/// A list a request asked to keep (`keep`): its rows, paragraphs, styles and shaping as laid out, its rows' keys (for
/// a later anchor) and the body bytes it was sent in (a later request naming it is bounded as that body would be).
struct KeptList: Sendable {
    /// The list without widths, scroll or anchor, with its shaping.
    var input: ListLayoutInput
    var keys: ListRowKeys
    var bodyBytes: Int

    /// Rule: the bytes a kept list counts for: its texts' blocks, its rows, paragraphs' styles, chromes and styles,
    /// its keys, its shaping (`ListShaping.bytes`) and a fixed overhead.
    var bytes: Int {
        input.paragraphs.byteCapacity + 8 * input.rows.count + 4 * input.paragraphStyles.count + 64 * input.chromes.count
            + 64 * input.styles.count + keys.bytes + (input.shaping?.bytes ?? 0) + 1024
    }
}

/// The rows' keys as a list keeps them, to find an anchor's row in a later request: per row its key's bytes, a tag
/// (string or integer) and the string's UTF-8 or the integer's 8 bytes; empty for a row without a key.
struct ListRowKeys: Sendable {
    private var data: [UInt8] = []
    private var ends: [Int32] = []

    var bytes: Int { data.capacity + 4 * ends.capacity }

    /// The next row's key (nil: it has none); `key` is a valid client id (a string or an integer).
    mutating func append(_ key: JSONValue?) {
        if let key { Self.encode(key, into: &data) }
        ends.append(Int32(truncatingIfNeeded: data.count))
    }

    private static func encode(_ key: JSONValue, into data: inout [UInt8]) {
        if key.kind == .string {
            data.append(1)
            key.withStringBytes { data.append(contentsOf: $0) }
        } else {
            data.append(2)
            let value = UInt64(bitPattern: key.int64 ?? 0)
            for shift in stride(from: 0, to: 64, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// Rule (as for rows sent): the first row whose key is `key` (a string's same UTF-8 bytes, or the same integer).
    func firstRow(_ key: JSONValue) -> Int? {
        var wanted: [UInt8] = []
        Self.encode(key, into: &wanted)
        var start = 0
        for (row, end) in ends.enumerated() {
            let end = Int(end)
            if end - start == wanted.count && data[start..<end].elementsEqual(wanted) { return row }
            start = end
        }
        return nil
    }
}

/// The lists kept for later requests at other widths, each named by 128 random bits (32 hex digits) that reveal
/// nothing of the others.
///
/// Rule: bounded by bytes (`KeptList.bytes`), which are taken from the memory budget (a list the budget cannot take
/// is not kept); one list keeps at most half the capacity; a list that does not fit pushes out the oldest lists
/// first. A list named by a request is not renewed: the store forgets lists in the order they came. Ids are looked up
/// in a dictionary hashed with Swift's per-process seed.
public final class ListStore: Sendable {
    public let byteCapacity: Int
    private let budget: (any ShapingCacheBudget)?

    private struct State {
        var lists: [String: (list: KeptList, bytes: Int)] = [:]
        /// Ids in the order they were kept; those before `head` are gone.
        var order: [String] = []
        var head = 0
        var bytes = 0
    }

    private let state = Mutex(State())

    public init(byteCapacity: Int = 64 << 20, budget: (any ShapingCacheBudget)? = nil) {
        self.byteCapacity = max(0, byteCapacity)
        self.budget = budget
    }

    deinit {
        let kept = state.withLock { $0.bytes }
        budget?.releaseFromCache(kept)
    }

    /// Rule: the most one list may keep.
    public var perListByteCapacity: Int { byteCapacity / 2 }

    /// Keeps `list` under a new id; nil when it is larger than a list may keep or the budget cannot take it.
    func keep(_ list: KeptList) -> String? {
        let bytes = list.bytes
        guard bytes <= perListByteCapacity, budget?.reserveForCache(bytes) ?? true else { return nil }
        let id = RequestID.random()
        let dropped: Int = state.withLock { state in
            var dropped = 0
            while state.bytes + bytes > byteCapacity, state.head < state.order.count {
                if let gone = state.lists.removeValue(forKey: state.order[state.head]) {
                    state.bytes -= gone.bytes
                    dropped += gone.bytes
                }
                state.head += 1
            }
            // The ids gone are let go once they are most of the order.
            if state.head > 64 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.lists[id] = (list, bytes)
            state.order.append(id)
            state.bytes += bytes
            return dropped
        }
        if dropped > 0 { budget?.releaseFromCache(dropped) }
        return id
    }

    /// The list kept under `id`, if it still is.
    func list(_ id: String) -> KeptList? {
        state.withLock { $0.lists[id]?.list }
    }

    /// Takes `bytes` of working memory from the budget for laying out a kept list (its body's share, which the router
    /// took for a list sent); false when it cannot. `release` gives them back.
    func reserve(_ bytes: Int) -> Bool { budget?.reserveForCache(bytes) ?? true }
    func release(_ bytes: Int) { budget?.releaseFromCache(bytes) }

    /// Lists kept (for tests and metrics).
    public var count: Int { state.withLock { $0.lists.count } }
    /// The bytes they count for.
    public var bytes: Int { state.withLock { $0.bytes } }
}

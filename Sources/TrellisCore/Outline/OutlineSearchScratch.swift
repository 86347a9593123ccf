/// The buffers one label's scan writes, kept between labels: while collecting, each scalar's UTF-16 start and
/// whether it is a combining mark, the occurrences as differences per scalar (`coverage` counts those covering a
/// scalar, `crossing` those covering it and the one before), and three rings indexed by folded position: the terms
/// to open again there (two words, when the slot's stamp is that position), and the label scalar of each of the
/// last positions. Raw buffers, so that the scan's writes are plain stores; a search writes only a scratch it
/// alone holds (a copy of a search makes its own), which is what makes it a value.
final class OutlineSearchScratch: @unchecked Sendable {
    // @unchecked: only the one search that holds it uniquely writes it (OutlineSearch.scan checks).
    private(set) var labelCapacity = 0
    private(set) var coverage: UnsafeMutablePointer<Int32>
    private(set) var crossing: UnsafeMutablePointer<Int32>
    private(set) var utf16Starts: UnsafeMutablePointer<UInt32>
    private(set) var marks: UnsafeMutablePointer<Bool>
    let slots: Int
    let ring: UnsafeMutablePointer<UInt64>
    let ringStamp: UnsafeMutablePointer<Int>
    let origins: UnsafeMutablePointer<UInt32>

    /// Rings of `slots` positions (a power of two above the longest term).
    init(slots: Int) {
        self.slots = slots
        ring = .allocate(capacity: 2 * slots)
        ring.initialize(repeating: 0, count: 2 * slots)
        ringStamp = .allocate(capacity: slots)
        ringStamp.initialize(repeating: -1, count: slots)
        origins = .allocate(capacity: slots)
        origins.initialize(repeating: 0, count: slots)
        coverage = .allocate(capacity: 2)
        crossing = .allocate(capacity: 2)
        utf16Starts = .allocate(capacity: 1)
        marks = .allocate(capacity: 1)
    }

    /// Room for a label of `bytes` (at most as many scalars). The differences are zero between scans: new room
    /// starts cleared, and a scan that wrote some clears them (see `clear`).
    func prepare(labelBytes bytes: Int) {
        if bytes > labelCapacity {
            let capacity = max(bytes, 2 * labelCapacity)
            coverage.deallocate()
            crossing.deallocate()
            utf16Starts.deallocate()
            marks.deallocate()
            coverage = .allocate(capacity: capacity + 2)
            crossing = .allocate(capacity: capacity + 2)
            utf16Starts = .allocate(capacity: capacity + 1)
            marks = .allocate(capacity: capacity + 1)
            coverage.initialize(repeating: 0, count: capacity + 2)
            crossing.initialize(repeating: 0, count: capacity + 2)
            labelCapacity = capacity
        }
    }

    /// The differences of a label of `scalars` scalars back to zero (they are written at 0...scalars).
    func clear(scalars: Int) {
        coverage.update(repeating: 0, count: scalars + 1)
        crossing.update(repeating: 0, count: scalars + 1)
    }

    deinit {
        ring.deallocate()
        ringStamp.deallocate()
        origins.deallocate()
        coverage.deallocate()
        crossing.deallocate()
        utf16Starts.deallocate()
        marks.deallocate()
    }
}

/// The automaton's tables (see OutlineSearch), made once per search and never written after: raw buffers, so
/// that the scan's inner loop reads them without a bounds check or a closure around it. Every index the scan
/// uses is a state below `states` and a symbol below the symbol count, as the automaton was built.
final class OutlineSearchTables: @unchecked Sendable {
    // @unchecked: written only by init; every search that shares it reads it.
    /// The next state for a state and a symbol: `state * symbolCount + symbol`.
    let transitions: UnsafeMutablePointer<Int32>
    /// The terms that end at each state (its own and its failure chain's), as bits: two words a state.
    let endingTerms: UnsafeMutablePointer<UInt64>
    /// Whether any term ends at a state.
    let endsTerm: UnsafeMutablePointer<Bool>
    /// The automaton's symbol for each ASCII byte (each ASCII scalar folds to exactly one scalar, never a mark).
    let asciiSymbols: UnsafeMutablePointer<Int32>
    /// Each term's length in folded scalars, by term number (the shortest first).
    let termLengths: UnsafeMutablePointer<Int>

    /// The Aho–Corasick automaton of `terms` (each a list of symbols in 1..<symbolCount, numbered as the search
    /// numbers its terms). The trie is laid out in the transition table itself; then, breadth first, each state's
    /// row starts as a copy of its failure state's and takes its own children over it, so building costs one row
    /// copy per state, however many symbols the query has.
    init(terms: [[Int32]], symbolCount k: Int, asciiSymbols: [Int32]) {
        let capacity = 1 + terms.reduce(0) { $0 + $1.count }
        transitions = .allocate(capacity: capacity * k)
        transitions.initialize(repeating: 0, count: capacity * k)
        endingTerms = .allocate(capacity: 2 * capacity)
        endingTerms.initialize(repeating: 0, count: 2 * capacity)
        endsTerm = .allocate(capacity: capacity)
        self.asciiSymbols = .allocate(capacity: 128)
        self.asciiSymbols.initialize(from: asciiSymbols, count: 128)
        termLengths = .allocate(capacity: max(1, terms.count))
        termLengths.initialize(from: terms.map(\.count), count: terms.count)

        // The trie: state 0 is the root, which is no state's child, so a move to 0 is "no child yet". Each state's
        // children are a list (first child, next sibling) and each state knows the symbol that leads to it.
        var firstChild = [Int32](repeating: 0, count: capacity)
        var nextSibling = [Int32](repeating: 0, count: capacity)
        var symbolInto = [Int32](repeating: 0, count: capacity)
        var states = 1
        for (t, term) in terms.enumerated() {
            var state = 0
            for a in term {
                var next = Int(transitions[state * k + Int(a)])
                if next == 0 {
                    next = states
                    states += 1
                    transitions[state * k + Int(a)] = Int32(next)
                    symbolInto[next] = a
                    nextSibling[next] = firstChild[state]
                    firstChild[state] = Int32(next)
                }
                state = next
            }
            endingTerms[2 * state + t / 64] |= 1 << UInt64(t % 64)
        }
        // Rule: breadth first, a state's missing moves are its failure state's, and the terms ending at it are its
        // own and its failure state's; the root's children fail to the root.
        var fail = [Int32](repeating: 0, count: states)
        var queue: [Int32] = []
        queue.reserveCapacity(states)
        var child = firstChild[0]
        while child != 0 {
            queue.append(child)
            child = nextSibling[Int(child)]
        }
        var head = 0
        while head < queue.count {
            let r = Int(queue[head])
            head += 1
            let f = Int(fail[r])
            endingTerms[2 * r] |= endingTerms[2 * f]
            endingTerms[2 * r + 1] |= endingTerms[2 * f + 1]
            let row = transitions + r * k
            row.update(from: transitions + f * k, count: k)
            child = firstChild[r]
            while child != 0 {
                let u = Int(child)
                fail[u] = row[Int(symbolInto[u])]
                row[Int(symbolInto[u])] = child
                queue.append(child)
                child = nextSibling[u]
            }
        }
        for state in 0..<capacity {
            (endsTerm + state).initialize(to: endingTerms[2 * state] | endingTerms[2 * state + 1] != 0)
        }
    }

    deinit {
        transitions.deallocate()
        endingTerms.deallocate()
        endsTerm.deallocate()
        asciiSymbols.deallocate()
        termLengths.deallocate()
    }
}

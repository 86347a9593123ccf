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

    init(transitions: [Int32], endingTerms: [UInt64], endsTerm: [Bool], asciiSymbols: [Int32], termLengths: [Int]) {
        func copy<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
            _ = UnsafeMutableBufferPointer(start: pointer, count: values.count).initialize(from: values)
            return pointer
        }
        self.transitions = copy(transitions)
        self.endingTerms = copy(endingTerms)
        self.endsTerm = copy(endsTerm)
        self.asciiSymbols = copy(asciiSymbols)
        self.termLengths = copy(termLengths)
    }

    deinit {
        transitions.deallocate()
        endingTerms.deallocate()
        endsTerm.deallocate()
        asciiSymbols.deallocate()
        termLengths.deallocate()
    }
}

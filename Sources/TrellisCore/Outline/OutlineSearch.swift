// The Swift standard library's own Unicode tables: canonical decomposition and full case folding
// (CaseFolding.txt statuses C and F) are reachable only through its `_Unicode` SPI.
@_spi(_Unicode) import Swift

/// How a search query is compared with a label.
public enum OutlineSearchMode: Sendable, Equatable, CaseIterable {
    /// Every non-overlapping occurrence of the query, scanned left to right.
    case substring
    /// The label starts with the query.
    case prefix
    /// The query split on White_Space into terms; every term must occur, in any order.
    case words
}

/// Finds where a query occurs in labels, after the same per-scalar folding of both: which nodes match
/// (in node order), and on demand where a label matches. Labels are UTF-8; ranges are in UTF-16 code units.
/// Each label costs O(its length × the few terms that can end at one place); folding is cached per scalar.
@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
public struct OutlineSearch: Sendable {
    public let mode: OutlineSearchMode
    public let caseSensitive: Bool
    public let diacriticSensitive: Bool

    /// Which of the nodes appended so far match.
    public private(set) var matches: OutlineSearchMatches

    // The terms' automaton (Aho–Corasick over folded scalars): symbol 0 stands for every scalar in no term.
    private let termLengths: [Int]
    private let symbolCount: Int
    private let symbols: [UInt32: UInt32]
    private let transitions: [Int32]
    private let outputStart: [Int32]
    private let outputTerms: [Int32]
    /// The automaton's moves on ASCII bytes, `state * 128 + byte` → next state × 2, + 1 when a term ends there
    /// (each ASCII scalar folds to exactly one scalar, never a mark).
    private let asciiTransitions: [Int32]

    // Per-scalar folding cache: bit 63 computed, bit 40 the scalar is a combining mark,
    // bits 32–39 the folded length, bits 0–31 where its folded symbols start in `pool`.
    private var planeEntries: [[UInt64]] = Array(repeating: [], count: 17)
    private var foldScratch: [Unicode.Scalar] = []
    /// Folded symbols; `markBit` set when the folded scalar is a combining mark.
    private var pool: [UInt32] = []

    // Scratch for one label, kept between labels.
    private var folded: [UInt32] = []
    private var origins: [UInt32] = []
    private var utf16Starts: [UInt32] = []
    private var labelMarks: [Bool] = []
    /// The occurrences kept for `finish`, by label scalar index, as differences: `coverage` counts the
    /// occurrences that cover a scalar, `crossing` those that cover it and the one before. Their size is
    /// the label's, whatever the number of occurrences (a label is shorter than 4 GiB, the parser's limit).
    private var coverage: [Int32] = []
    private var crossing: [Int32] = []
    private var scalarCount = 0
    private var lastEnd: [Int]
    private var termSeen: [Bool]
    private var seenCount = 0
    private var collect = false
    private var labelIsASCII = true

    static let markBit: UInt32 = 1 << 31
    static let symbolMask: UInt32 = markBit - 1

    /// The query folded and split by `mode`; nil when nothing is left to match (the query, or in
    /// `words` mode every term, folds to nothing).
    public init?(query: String, mode: OutlineSearchMode = .substring, caseSensitive: Bool = false, diacriticSensitive: Bool = false) {
        self.mode = mode
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.matches = OutlineSearchMatches()

        // Rule: in `words` mode the query is split on White_Space into terms; a term that folds to nothing is dropped.
        var pieces: [[Unicode.Scalar]] = [[]]
        for scalar in query.unicodeScalars {
            if mode == .words && scalar.properties.isWhitespace {
                if !pieces[pieces.count - 1].isEmpty { pieces.append([]) }
            } else {
                pieces[pieces.count - 1].append(scalar)
            }
        }
        var terms: [[UInt32]] = []
        for piece in pieces {
            var term: [Unicode.Scalar] = []
            for scalar in piece {
                Self.fold(scalar, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, into: &term)
            }
            let values = term.map(\.value)
            // Equal terms find the same occurrences: one is enough.
            if !values.isEmpty && !terms.contains(values) { terms.append(values) }
        }
        guard !terms.isEmpty else { return nil }
        termLengths = terms.map(\.count)
        lastEnd = [Int](repeating: 0, count: terms.count)
        termSeen = [Bool](repeating: false, count: terms.count)

        var symbols: [UInt32: UInt32] = [:]
        for value in terms.joined() where symbols[value] == nil {
            symbols[value] = UInt32(symbols.count + 1)
        }
        self.symbols = symbols
        let k = symbols.count + 1
        symbolCount = k

        // The trie of the terms.
        var trie: [Int32] = [Int32](repeating: -1, count: k)
        var own: [[Int32]] = [[]]
        for (t, term) in terms.enumerated() {
            var state = 0
            for value in term {
                let a = Int(symbols[value] ?? 0)
                if trie[state * k + a] < 0 {
                    trie[state * k + a] = Int32(own.count)
                    own.append([])
                    trie += [Int32](repeating: -1, count: k)
                }
                state = Int(trie[state * k + a])
            }
            own[state].append(Int32(t))
        }
        // Rule: breadth first, each state's missing moves are its failure state's; its outputs include its failure state's.
        let states = own.count
        var delta = [Int32](repeating: 0, count: states * k)
        var fail = [Int32](repeating: 0, count: states)
        var outputs = own
        var queue: [Int] = []
        for a in 0..<k where trie[a] >= 0 {
            delta[a] = trie[a]
            queue.append(Int(trie[a]))
        }
        var head = 0
        while head < queue.count {
            let r = queue[head]
            head += 1
            outputs[r] += outputs[Int(fail[r])]
            for a in 0..<k {
                let u = trie[r * k + a]
                let viaFailure = delta[Int(fail[r]) * k + a]
                if u >= 0 {
                    fail[Int(u)] = viaFailure
                    delta[r * k + a] = u
                    queue.append(Int(u))
                } else {
                    delta[r * k + a] = viaFailure
                }
            }
        }
        transitions = delta
        var starts: [Int32] = [0]
        var flat: [Int32] = []
        for list in outputs {
            flat += list
            starts.append(Int32(flat.count))
        }
        outputStart = starts
        outputTerms = flat

        var ascii = [UInt32](repeating: 0, count: 128)
        var scratch: [Unicode.Scalar] = []
        for byte in 0..<128 {
            scratch.removeAll(keepingCapacity: true)
            Self.fold(Unicode.Scalar(UInt8(byte)), caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, into: &scratch)
            precondition(scratch.count == 1, "an ASCII scalar folds to one ASCII scalar")
            ascii[byte] = symbols[scratch[0].value] ?? 0
        }
        var asciiMoves = [Int32](repeating: 0, count: states * 128)
        for state in 0..<states {
            for byte in 0..<128 {
                let next = Int(delta[state * k + Int(ascii[byte])])
                asciiMoves[state * 128 + byte] = Int32(next * 2 + (starts[next] < starts[next + 1] ? 1 : 0))
            }
        }
        asciiTransitions = asciiMoves
    }

    // MARK: Folding

    /// Rule: c becomes NFD(c); unless case-sensitive, then full case folding (C and F) and NFD again;
    /// unless diacritic-sensitive, then every scalar of general category Mn is removed.
    /// `emit` gets each folded scalar with its general category. Scalars the case folding leaves
    /// unchanged (Changes_When_Casefolded false) skip it, and so the second NFD: both would give them back.
    static func fold(
        _ c: Unicode.Scalar, caseSensitive: Bool, diacriticSensitive: Bool, scratch: inout [Unicode.Scalar],
        _ emit: (Unicode.Scalar, Unicode.GeneralCategory) -> Void
    ) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: String(c)._nfd)
        if !caseSensitive && scratch.contains(where: { $0.properties.changesWhenCaseFolded }) {
            var cased = String.UnicodeScalarView()
            for d in scratch { cased.append(contentsOf: d.properties._caseFolded.unicodeScalars) }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: String(cased)._nfd)
        }
        for d in scratch {
            let category = d.properties.generalCategory
            if diacriticSensitive || category != .nonspacingMark { emit(d, category) }
        }
    }

    /// The folded scalars of c, appended to `out`.
    static func fold(_ c: Unicode.Scalar, caseSensitive: Bool, diacriticSensitive: Bool, into out: inout [Unicode.Scalar]) {
        var scratch: [Unicode.Scalar] = []
        fold(c, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, scratch: &scratch) { d, _ in out.append(d) }
    }

    /// A combining mark: general category Mn, Mc or Me.
    static func isCombiningMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The cache entry of a scalar, folding it the first time; one flat table per Unicode plane, made when first used.
    private mutating func entry(_ c: Unicode.Scalar) -> UInt64 {
        let plane = Int(c.value >> 16)
        let low = Int(c.value & 0xFFFF)
        if planeEntries[plane].isEmpty { planeEntries[plane] = [UInt64](repeating: 0, count: 0x10000) }
        let cached = planeEntries[plane][low]
        if cached != 0 { return cached }
        let made = makeEntry(c)
        planeEntries[plane][low] = made
        return made
    }

    private mutating func makeEntry(_ c: Unicode.Scalar) -> UInt64 {
        let start = pool.count
        var scratch = foldScratch
        var ownCategory: Unicode.GeneralCategory?
        Self.fold(c, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, scratch: &scratch) { d, category in
            // Most scalars fold to themselves: their category is then known already.
            if d == c { ownCategory = category }
            pool.append((symbols[d.value] ?? 0) | (Self.isCombiningMark(category) ? Self.markBit : 0))
        }
        foldScratch = scratch
        let isMark = Self.isCombiningMark(ownCategory ?? c.properties.generalCategory)
        return 1 << 63 | (isMark ? 1 << 40 : 0) | UInt64(pool.count - start) << 32 | UInt64(start)
    }

    // MARK: Matching

    /// Appends the next node (in node index order): its label's UTF-8 bytes, or nil when it has no string label.
    public mutating func appendNode(label: UnsafeRawBufferPointer?) {
        matches.append(label.map { scan($0, collect: false) } ?? false)
    }

    /// Calls `body` with each range of a label, half-open [start, end) in UTF-16 code units, in order; never
    /// when the label does not match.
    public mutating func ranges(in label: UnsafeRawBufferPointer, _ body: (Int, Int) -> Void) {
        guard scan(label, collect: true) else { return }
        finish(body)
    }

    /// Whether the label matches; with `collect`, every occurrence is kept for `finish`, else the scan stops
    /// as soon as every term has occurred.
    private mutating func scan(_ label: UnsafeRawBufferPointer, collect: Bool) -> Bool {
        guard !label.isEmpty else { return false }
        self.collect = collect
        if collect {
            let size = label.count + 2
            if coverage.count < size {
                coverage = [Int32](repeating: 0, count: size)
                crossing = [Int32](repeating: 0, count: size)
            } else {
                for i in 0..<size {
                    coverage[i] = 0
                    crossing[i] = 0
                }
            }
        }
        for t in termSeen.indices {
            termSeen[t] = false
            lastEnd[t] = 0
        }
        seenCount = 0
        labelIsASCII = true
        for byte in label where byte >= 0x80 {
            labelIsASCII = false
            break
        }
        if labelIsASCII {
            scalarCount = label.count
            scanASCII(label)
        } else if mayMatch(label) {
            scanUnicode(label)
        }
        // Rule: in `words` mode every term must occur; otherwise the one term must.
        return seenCount == termLengths.count
    }

    /// ASCII labels: one scalar per byte, one folded scalar per scalar, no marks, UTF-16 offsets equal byte offsets.
    private mutating func scanASCII(_ label: UnsafeRawBufferPointer) {
        var state = 0
        let moves = asciiTransitions
        let limit = mode == .prefix ? min(label.count, termLengths[0]) : label.count
        for i in 0..<limit {
            let next = Int(moves[state &* 128 &+ Int(label[i])])
            state = next >> 1
            guard next & 1 != 0 else { continue }
            for o in Int(outputStart[state])..<Int(outputStart[state + 1]) {
                let t = Int(outputTerms[o])
                let start = i + 1 - termLengths[t]
                accept(t, start: start, end: i + 1, scalars: (start, i + 1))
            }
            if !collect && seenCount == termLengths.count { return }
        }
    }

    /// Whether some term may occur in a non-ASCII label: the automaton over its folded scalars without storing
    /// them; only labels where a term ends somewhere are scanned again in full (most labels of a search are not).
    private mutating func mayMatch(_ label: UnsafeRawBufferPointer) -> Bool {
        var decoder = UTF8Scalars(label)
        var state = 0
        let k = symbolCount
        var limit = mode == .prefix ? termLengths[0] : Int.max
        while let c = decoder.next() {
            let e = entry(c)
            let start = Int(truncatingIfNeeded: e & 0xFFFF_FFFF)
            let count = Int(truncatingIfNeeded: (e >> 32) & 0xFF)
            for j in start..<(start + count) {
                guard limit > 0 else { return false }
                limit -= 1
                state = Int(transitions[state * k + Int(pool[j] & Self.symbolMask)])
                if outputStart[state] != outputStart[state + 1] { return true }
            }
        }
        return false
    }

    /// Other labels: decoded, folded through the cache, each folded scalar knowing its label scalar.
    private mutating func scanUnicode(_ label: UnsafeRawBufferPointer) {
        folded.removeAll(keepingCapacity: true)
        origins.removeAll(keepingCapacity: true)
        utf16Starts.removeAll(keepingCapacity: true)
        labelMarks.removeAll(keepingCapacity: true)
        var decoder = UTF8Scalars(label)
        var utf16: UInt32 = 0
        while let c = decoder.next() {
            let e = entry(c)
            let index = UInt32(truncatingIfNeeded: utf16Starts.count)
            utf16Starts.append(utf16)
            utf16 &+= c.value < 0x10000 ? 1 : 2
            labelMarks.append(e & (1 << 40) != 0)
            let start = Int(truncatingIfNeeded: e & 0xFFFF_FFFF)
            let count = Int(truncatingIfNeeded: (e >> 32) & 0xFF)
            for j in start..<(start + count) {
                folded.append(pool[j])
                origins.append(index)
            }
        }
        utf16Starts.append(utf16)
        labelMarks.append(false)
        scalarCount = utf16Starts.count - 1

        var state = 0
        let k = symbolCount
        let limit = mode == .prefix ? min(folded.count, termLengths[0]) : folded.count
        for i in 0..<limit {
            state = Int(transitions[state * k + Int(folded[i] & Self.symbolMask)])
            let first = Int(outputStart[state]), last = Int(outputStart[state + 1])
            guard first < last else { continue }
            for o in first..<last {
                let t = Int(outputTerms[o])
                // Rule: with diacriticSensitive, a match may not end right before a combining mark of the folded label.
                if diacriticSensitive && i + 1 < folded.count && folded[i + 1] & Self.markBit != 0 { continue }
                let start = i + 1 - termLengths[t]
                accept(t, start: start, end: i + 1, scalars: (Int(origins[start]), Int(origins[i]) + 1))
            }
            if !collect && seenCount == termLengths.count { return }
        }
    }

    /// Rule: occurrences of one term are taken left to right without overlapping (in the folded label);
    /// `prefix` takes only the one at the start.
    private mutating func accept(_ t: Int, start: Int, end: Int, scalars: (Int, Int)) {
        guard start >= lastEnd[t], mode != .prefix || start == 0 else { return }
        lastEnd[t] = end
        if !termSeen[t] {
            termSeen[t] = true
            seenCount += 1
        }
        if collect {
            coverage[scalars.0] &+= 1
            coverage[scalars.1] &-= 1
            if scalars.1 - scalars.0 > 1 {
                crossing[scalars.0 + 1] &+= 1
                crossing[scalars.1] &-= 1
            }
        }
    }

    /// Rule: occurrences that overlap are merged into one range, ranges that only touch stay apart; each
    /// range is then extended over the combining marks that directly follow it, and overlaps merged again.
    /// A range of the first merge is a run of covered scalars where an occurrence crosses every inner boundary.
    /// One pass over the label; the ranges go to `body` in UTF-16 code units, in order.
    private func finish(_ body: (Int, Int) -> Void) {
        var covering: Int32 = 0
        var crossings: Int32 = 0
        var runStart = -1
        var pending: (start: Int, end: Int)?
        func emit(_ range: (start: Int, end: Int)) {
            if labelIsASCII {
                body(range.start, range.end)
            } else {
                body(Int(utf16Starts[range.start]), Int(utf16Starts[range.end]))
            }
        }
        for p in 0...scalarCount {
            covering &+= coverage[p]
            crossings &+= crossing[p]
            let covered = p < scalarCount && covering > 0
            if runStart >= 0 && !(covered && crossings > 0) {
                var end = p
                if !labelIsASCII {
                    while labelMarks[end] { end += 1 }
                }
                if let last = pending, runStart < last.end {
                    pending = (last.start, max(last.end, end))
                } else {
                    if let last = pending { emit(last) }
                    pending = (runStart, end)
                }
                runStart = -1
            }
            if covered && runStart < 0 { runStart = p }
        }
        if let last = pending { emit(last) }
    }
}

/// Which nodes match a search, by node index.
public struct OutlineSearchMatches: Sendable, Equatable {
    private var flags: [Bool] = []

    /// No node yet.
    public init() {}

    /// Matches as made elsewhere (tests): one flag per node.
    public init(_ flags: [Bool]) {
        for flag in flags { append(flag) }
    }

    /// Nodes appended so far.
    public var nodeCount: Int { flags.count }

    /// Matching nodes among them.
    public private(set) var matchCount = 0

    /// Whether the node matches.
    public func isMatch(_ node: Int) -> Bool { flags[node] }

    mutating func append(_ isMatch: Bool) {
        flags.append(isMatch)
        if isMatch { matchCount += 1 }
    }
}

/// Decodes UTF-8 (valid as the JSON parser leaves it); a malformed sequence becomes U+FFFD, never a read out of bounds.
struct UTF8Scalars {
    let bytes: UnsafeRawBufferPointer
    var i = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func next() -> Unicode.Scalar? {
        guard i < bytes.count else { return nil }
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 {
            i += 1
            return Unicode.Scalar(UInt8(b0))
        }
        let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1
        guard length > 1, i + length <= bytes.count else {
            i += 1
            return "\u{FFFD}"
        }
        var value = b0 & (0x7F >> length)
        for j in 1..<length {
            let b = UInt32(bytes[i + j])
            guard b & 0xC0 == 0x80 else {
                i += 1
                return "\u{FFFD}"
            }
            value = value << 6 | (b & 0x3F)
        }
        i += length
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}

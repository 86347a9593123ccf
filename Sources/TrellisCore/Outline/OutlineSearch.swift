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
    /// Its moves, the terms ending at each state, and the ASCII bytes' symbols.
    private let tables: OutlineSearchTables
    /// The most terms a search has: two words of bits.
    public static let maxTerms = 128

    /// How label scalars fold (shared by every search, made as labels need it).
    private let folding: OutlineFolding
    /// The query's folded values (+ 1; 0 an empty slot) and their symbols, a power of two of slots (see `symbol`).
    private let symbolKeys: [UInt32]
    private let symbolIDs: [UInt32]
    private let symbolMultiplier: UInt64
    private let symbolShift: UInt64

    /// Buffers for one label's scan, kept between labels (see OutlineSearchScratch): their size is the label's,
    /// whatever the number of occurrences.
    private var scratch: OutlineSearchScratch
    /// Folded positions in the current label's scan.
    private var positions = 0
    private var scalarCount = 0
    /// While matching, the terms not seen yet in the current label, as bits.
    private var openLow: UInt64 = 0
    private var openHigh: UInt64 = 0
    /// How many terms the current label has shown.
    private var seenCount = 0
    private let allLow: UInt64
    private let allHigh: UInt64
    /// While collecting: the scratch's rings have `ringMask + 1` slots, stamped with positions on `clock`
    /// (see OutlineSearchCollector), which runs on across labels.
    private let ringMask: Int
    private var clock = 0
    private var collect = false
    private var labelIsASCII = true

    /// The query folded and split by `mode`; nil when nothing is left to match (the query, or in
    /// `words` mode every term, folds to nothing) or when `words` mode gives more than `maxTerms` terms.
    public init?(
        folding: OutlineFolding, query: String, mode: OutlineSearchMode = .substring, caseSensitive: Bool = false,
        diacriticSensitive: Bool = false
    ) {
        self.folding = folding
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
            var values: [UInt32] = []
            for scalar in piece {
                // The query folds as labels do, through the shared table.
                let folded = folding.fold(scalar, caseSensitive: caseSensitive)
                for j in 0..<folded.count {
                    let value = folded.scalar(j, of: scalar.value)
                    if diacriticSensitive || value & OutlineFolding.nonspacing == 0 { values.append(value & OutlineFolding.valueMask) }
                }
            }
            // Equal terms find the same occurrences: one is enough.
            if !values.isEmpty && !terms.contains(values) { terms.append(values) }
        }
        guard !terms.isEmpty, terms.count <= Self.maxTerms else { return nil }
        // Terms are numbered from the shortest, so that the longest of a set is its highest bit.
        terms.sort { $0.count < $1.count }
        termLengths = terms.map(\.count)
        allLow = terms.count >= 64 ? .max : (1 << UInt64(terms.count)) - 1
        allHigh = terms.count >= 128 ? .max : terms.count > 64 ? (1 << UInt64(terms.count - 64)) - 1 : 0
        var slots = 1
        while slots <= termLengths.max() ?? 0 { slots *= 2 }
        ringMask = slots - 1
        scratch = OutlineSearchScratch(slots: slots)

        var symbols: [UInt32: UInt32] = [:]
        for value in terms.joined() where symbols[value] == nil {
            symbols[value] = UInt32(symbols.count + 1)
        }
        self.symbols = symbols
        let k = symbols.count + 1
        symbolCount = k
        var bits: UInt64 = 4
        while 1 << bits < 4 * symbols.count { bits += 1 }
        var hasher = Hasher()
        hasher.combine(0x7E11_15)
        let multiplier = UInt64(UInt(bitPattern: hasher.finalize())) | 1
        var keys = [UInt32](repeating: 0, count: 1 << bits)
        var ids = [UInt32](repeating: 0, count: 1 << bits)
        for (value, id) in symbols {
            var slot = Int((UInt64(value) &* multiplier) >> (64 - bits))
            while keys[slot] != 0 { slot = (slot + 1) & ((1 << bits) - 1) }
            keys[slot] = value + 1
            ids[slot] = id
        }
        symbolKeys = keys
        symbolIDs = ids
        symbolMultiplier = multiplier
        symbolShift = 64 - bits

        // An ASCII scalar is its own NFD and folds to its lowercase letter (no ASCII scalar is a mark).
        var ascii = [Int32](repeating: 0, count: 128)
        for byte in 0..<128 {
            let folded = !caseSensitive && (65...90).contains(byte) ? byte + 32 : byte
            ascii[byte] = Int32(symbols[UInt32(folded)] ?? 0)
        }
        tables = OutlineSearchTables(
            terms: terms.map { $0.map { Int32(symbols[$0] ?? 0) } }, symbolCount: k, asciiSymbols: ascii)
    }

    /// The automaton's symbol for a folded scalar's value (0: in no term): an open-addressing table over the
    /// query's values, its hash a multiplication by an odd number from the per-process seeded hasher.
    @inline(__always)
    private func symbol(of value: UInt32) -> UInt32 {
        var slot = Int(truncatingIfNeeded: (UInt64(value) &* symbolMultiplier) >> symbolShift)
        while true {
            let key = symbolKeys[slot]
            if key == value &+ 1 { return symbolIDs[slot] }
            if key == 0 { return 0 }
            slot = (slot &+ 1) & (symbolKeys.count - 1)
        }
    }

    // MARK: Matching

    /// Appends the next node (in node index order): its label's UTF-8 bytes, or nil when it has no string label.
    /// Counts a step per label byte and per term occurrence looked at on `meter`.
    public mutating func appendNode(label: UnsafeRawBufferPointer?, meter: inout WorkMeter) {
        matches.append(label.map { scan($0, collect: false, &meter) } ?? false)
    }

    /// Appends the next node, without a meter.
    public mutating func appendNode(label: UnsafeRawBufferPointer?) {
        var meter = WorkMeter()
        appendNode(label: label, meter: &meter)
    }

    /// Appends the next node and, when it matches, calls `body` with each of its ranges as `ranges(in:)` does: for
    /// a caller that needs the ranges of every match. A label is scanned once, collecting from its start, when it
    /// has at least `collectingFirst` bytes or when most labels so far matched; otherwise it is matched first and
    /// collected only when it matches. So a label is scanned twice only while at most half of them match.
    public mutating func appendNode(
        label: UnsafeRawBufferPointer?, meter: inout WorkMeter, ranges body: (Int, Int) -> Void
    ) {
        guard let label else { return matches.append(false) }
        guard label.count >= Self.collectingFirst || 2 &* matches.matchCount > matches.nodeCount else {
            let isMatch = scan(label, collect: false, &meter)
            matches.append(isMatch)
            if isMatch { ranges(in: label, meter: &meter, body) }
            return
        }
        let isMatch = scan(label, collect: true, &meter)
        matches.append(isMatch)
        if isMatch { finish(body) }
    }

    /// Labels at least this long are collected in the pass that matches them (see `appendNode(label:meter:ranges:)`):
    /// below it, matching alone costs less when the label does not match, as most do not.
    public static let collectingFirst = 64

    /// Calls `body` with each range of a label, half-open [start, end) in UTF-16 code units, in order; never
    /// when the label does not match.
    public mutating func ranges(in label: UnsafeRawBufferPointer, meter: inout WorkMeter, _ body: (Int, Int) -> Void) {
        guard scan(label, collect: true, &meter) else { return }
        finish(body)
    }

    /// The ranges of a label, without a meter.
    public mutating func ranges(in label: UnsafeRawBufferPointer, _ body: (Int, Int) -> Void) {
        var meter = WorkMeter()
        ranges(in: label, meter: &meter, body)
    }

    /// Whether the label matches; with `collect`, every occurrence is kept for `finish`, else the scan stops
    /// as soon as every term has occurred.
    private mutating func scan(_ label: UnsafeRawBufferPointer, collect: Bool, _ meter: inout WorkMeter) -> Bool {
        guard !label.isEmpty else { return false }
        self.collect = collect
        if collect {
            // A copy of this search shares the scratch until one of them collects: that one takes its own.
            if !isKnownUniquelyReferenced(&scratch) { scratch = OutlineSearchScratch(slots: ringMask + 1) }
            scratch.prepare(labelBytes: label.count)
        }
        openLow = allLow
        openHigh = allHigh
        seenCount = 0
        labelIsASCII = Self.isASCII(label)
        positions = label.count
        var collector = OutlineSearchCollector(
            scratch: scratch, tables: tables, clock: clock, openLow: allLow, openHigh: allHigh, labelIsASCII: labelIsASCII)
        if labelIsASCII {
            scalarCount = label.count
            if collect { collectASCII(label, &collector) } else { scanASCII(label) }
        } else {
            scanUnicode(label, &collector)
        }
        // Rule: in `words` mode every term must occur; otherwise the one term must.
        var isMatch = seenCount == termLengths.count
        if collect {
            collector.flush()
            isMatch = collector.seenLow == allLow && collector.seenHigh == allHigh
            // `finish` clears the differences of a match; a label that does not match clears those it wrote.
            if !isMatch && collector.taken > 0 { scratch.clear(scalars: scalarCount) }
        }
        // The ring's stamps of this label's positions (its folded scalars, and the longest term) are never met again.
        clock &+= positions &+ ringMask &+ 1
        _ = meter.advance(label.count &+ collector.taken)
        return isMatch
    }

    /// Whether every byte is below 0x80, eight bytes at a time.
    private static func isASCII(_ label: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        var high: UInt64 = 0
        while i &+ 8 <= label.count {
            high |= label.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < label.count {
            high |= UInt64(label[i])
            i &+= 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// ASCII labels: one scalar per byte, one folded scalar per scalar, no marks, UTF-16 offsets equal byte offsets.
    private mutating func scanASCII(_ label: UnsafeRawBufferPointer) {
        var state = 0
        let symbols = tables.asciiSymbols, delta = tables.transitions, ends = tables.endsTerm
        let k = symbolCount
        let limit = mode == .prefix ? min(label.count, termLengths[0]) : label.count
        for i in 0..<limit {
            state = Int(delta[state &* k &+ Int(symbols[Int(label[i] & 0x7F)])])
            guard ends[state] else { continue }
            take(endingAt: state)
            if seenCount == termLengths.count { return }
        }
    }

    /// ASCII labels while collecting: every occurrence, so to the end of the label (or of the prefix).
    private func collectASCII(_ label: UnsafeRawBufferPointer, _ collector: inout OutlineSearchCollector) {
        var state = 0
        let symbols = tables.asciiSymbols, delta = tables.transitions, ends = tables.endsTerm
        let k = symbolCount
        let limit = mode == .prefix ? min(label.count, termLengths[0]) : label.count
        // A local copy, so that its fields stay in registers while the loop writes through raw pointers.
        var local = collector
        for i in 0..<limit {
            local.reopen(at: i)
            state = Int(delta[state &* k &+ Int(symbols[Int(label[i] & 0x7F)])])
            if ends[state] { local.take(endingAt: state, position: i) }
        }
        collector = local
    }

    /// Other labels, in one pass as they are decoded: the automaton over the folded scalars (ASCII bytes take the
    /// ASCII moves), stopping once every term has occurred when only matching. While collecting it keeps each
    /// scalar's UTF-16 start and whether it is a combining mark, and in a ring the label scalar of each of the last
    /// folded positions (an occurrence is never longer than the ring). With diacriticSensitive a term's end waits
    /// for the next folded scalar, which must not be a combining mark.
    private mutating func scanUnicode(_ label: UnsafeRawBufferPointer, _ collector: inout OutlineSearchCollector) {
        let asciiSymbol = tables.asciiSymbols, delta = tables.transitions, ends = tables.endsTerm
        let buffers = scratch
        let utf16Starts = buffers.utf16Starts, labelMarks = buffers.marks
        var decoder = UTF8Scalars(label)
        var state = 0
        let k = symbolCount
        var limit = mode == .prefix ? termLengths[0] : Int.max
        var position = 0
        var pending = -1
        var scalar = 0, current = 0
        var utf16: UInt32 = 0
        // The terms that end at `state` with the folded symbol at `at`: taken while collecting, seen while matching.
        func take(_ state: Int, at: Int) {
            if collect { collector.take(endingAt: state, position: at) } else { self.take(endingAt: state) }
        }
        // One folded symbol of scalar `current`: resolves a waiting end, moves, and takes the terms that end here.
        func step(_ next: Int, ends endsHere: Bool, isMark: Bool) -> Bool {
            if pending >= 0 {
                if !isMark { take(pending, at: position - 1) }
                pending = -1
                if !collect && seenCount == termLengths.count { return false }
            }
            guard limit > 0 else { return false }
            limit -= 1
            if collect {
                collector.reopen(at: position)
                collector.origin(of: position, is: current)
            }
            state = next
            position += 1
            guard endsHere else { return true }
            if diacriticSensitive {
                pending = state
                return true
            }
            take(state, at: position - 1)
            return collect || seenCount != termLengths.count
        }
        scan: while decoder.i < label.count {
            let byte = label[decoder.i]
            if byte < 0x80 && !diacriticSensitive {
                // A run of ASCII bytes: no mark, so no end waits; each byte is one scalar and one folded symbol.
                let run = asciiRun(
                    label, from: decoder.i, state: &state, position: &position, scalar: &scalar, utf16: &utf16,
                    limit: &limit, &collector)
                decoder.i = run.end
                if run.stop { break }
                continue
            }
            current = scalar
            scalar += 1
            if byte < 0x80 {
                decoder.i += 1
                if collect {
                    utf16Starts[current] = utf16
                    labelMarks[current] = false
                    utf16 &+= 1
                }
                let next = Int(delta[state &* k &+ Int(asciiSymbol[Int(byte)])])
                guard step(next, ends: ends[next], isMark: false) else { break }
                continue
            }
            guard let c = decoder.next() else { break }
            let folded = folding.fold(c, caseSensitive: caseSensitive)
            if collect {
                utf16Starts[current] = utf16
                labelMarks[current] = folded.isMark
                utf16 &+= c.value < 0x10000 ? 1 : 2
            }
            for j in 0..<folded.count {
                let piece = folded.scalar(j, of: c.value)
                // Rule: unless diacritic-sensitive, nonspacing marks are left out.
                if !diacriticSensitive && piece & OutlineFolding.nonspacing != 0 { continue }
                let next = Int(delta[state &* k &+ Int(symbol(of: piece & OutlineFolding.valueMask))])
                guard step(next, ends: ends[next], isMark: piece & OutlineFolding.combining != 0) else { break scan }
            }
        }
        if pending >= 0 { take(pending, at: position - 1) }
        positions = position
        guard collect else { return }
        // The rest of the label, for its scalars' offsets and marks (prefix mode stops matching early).
        while let c = decoder.next() {
            utf16Starts[scalar] = utf16
            labelMarks[scalar] = c.value >= 0x80 && folding.fold(c, caseSensitive: caseSensitive).isMark
            utf16 &+= c.value < 0x10000 ? 1 : 2
            scalar += 1
        }
        utf16Starts[scalar] = utf16
        labelMarks[scalar] = false
        scalarCount = scalar
    }

    /// The ASCII bytes of a non-ASCII label from `start` up to the next other byte, as `step` takes them when no
    /// end waits; returns where the run ends and whether the scan stops (the prefix is done, or, when only
    /// matching, every term has occurred).
    private mutating func asciiRun(
        _ label: UnsafeRawBufferPointer, from start: Int, state: inout Int, position: inout Int, scalar: inout Int,
        utf16: inout UInt32, limit: inout Int, _ collector: inout OutlineSearchCollector
    ) -> (end: Int, stop: Bool) {
        let buffers = scratch
        let utf16Starts = buffers.utf16Starts, labelMarks = buffers.marks
        let k = symbolCount, all = termLengths.count
        var i = start, s = state, p = position, c = scalar, u = utf16, left = limit
        let delta = tables.transitions, ends = tables.endsTerm, symbols = tables.asciiSymbols
        var stop = false
        if collect {
            // One induction variable: the run's scalars, folded positions and UTF-16 units advance with its bytes.
            let count = label.count
            let end = left >= count &- i ? count : i &+ left
            let toScalar = c &- i, toPosition = p &- i
            // A local copy, so that its fields stay in registers while the loop writes through raw pointers.
            var local = collector
            while i < end {
                let byte = label[i]
                guard byte < 0x80 else { break }
                let scalar = toScalar &+ i, folded = toPosition &+ i
                local.reopen(at: folded)
                local.origin(of: folded, is: scalar)
                s = Int(delta[s &* k &+ Int(symbols[Int(byte)])])
                if ends[s] { local.take(endingAt: s, position: folded) }
                i &+= 1
            }
            collector = local
            let run = i &- start
            // The run's scalars: one UTF-16 unit each, no marks.
            var j = 0
            while j < run {
                utf16Starts[c &+ j] = u &+ UInt32(truncatingIfNeeded: j)
                labelMarks[c &+ j] = false
                j &+= 1
            }
            c &+= run
            p &+= run
            u &+= UInt32(truncatingIfNeeded: run)
            left &-= run
            // As when only matching: the prefix is done when another ASCII byte waits.
            stop = left == 0 && i < count && label[i] < 0x80
        } else {
            while i < label.count {
                let byte = label[i]
                guard byte < 0x80 else { break }
                guard left > 0 else { stop = true; break }
                left &-= 1
                c &+= 1
                i &+= 1
                s = Int(delta[s &* k &+ Int(symbols[Int(byte)])])
                p &+= 1
                guard ends[s] else { continue }
                take(endingAt: s)
                if seenCount == all { stop = true; break }
            }
        }
        state = s; position = p; scalar = c; utf16 = u; limit = left
        return (i, stop)
    }

    /// While matching: of the terms that end at `state`, those not seen yet in this label are seen (each term
    /// needs one occurrence; the collector takes every one, see OutlineSearchCollector). `prefix` looks only at the
    /// start: the scan stops at the query's length.
    @inline(__always)
    private mutating func take(endingAt state: Int) {
        let low = tables.endingTerms[2 &* state] & openLow
        let high = tables.endingTerms[2 &* state &+ 1] & openHigh
        guard low | high != 0 else { return }
        openLow &= ~low
        openHigh &= ~high
        seenCount &+= low.nonzeroBitCount &+ high.nonzeroBitCount
    }

    /// Rule: occurrences that overlap are merged into one range, ranges that only touch stay apart; each
    /// range is then extended over the combining marks that directly follow it, and overlaps merged again.
    /// A range of the first merge is a run of covered scalars where an occurrence crosses every inner boundary.
    /// One pass over the label; the ranges go to `body` in UTF-16 code units, in order.
    private func finish(_ body: (Int, Int) -> Void) {
        let buffers = scratch
        let coverage = buffers.coverage, crossing = buffers.crossing
        let utf16Starts = buffers.utf16Starts, labelMarks = buffers.marks
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
        buffers.clear(scalars: scalarCount)
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

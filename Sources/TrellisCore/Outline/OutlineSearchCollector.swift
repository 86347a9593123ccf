/// While collecting, what one label's scan keeps of the occurrences it takes: the terms open at the current
/// position, the ring of terms to open again later, and the pending span. A value in the scanning loop's
/// locals, so that its fields stay in registers; the buffers it writes are the search's scratch.
struct OutlineSearchCollector {
    /// The terms that may take an occurrence ending at the current position: those whose last occurrence taken
    /// does not overlap one ending here.
    private var openLow: UInt64
    private var openHigh: UInt64
    /// The terms taken at least once, as bits, and the occurrences taken (the work beyond one step per byte).
    private(set) var seenLow: UInt64 = 0
    private(set) var seenHigh: UInt64 = 0
    private(set) var taken = 0
    /// The union of the overlapping occurrences taken last, label scalars [spanStart, spanEnd).
    private var spanStart = 0
    private var spanEnd = 0
    private let ring: UnsafeMutablePointer<UInt64>
    private let ringStamp: UnsafeMutablePointer<Int>
    private let origins: UnsafeMutablePointer<UInt32>
    private let coverage: UnsafeMutablePointer<Int32>
    private let crossing: UnsafeMutablePointer<Int32>
    private let endingTerms: UnsafeMutablePointer<UInt64>
    private let termLengths: UnsafeMutablePointer<Int>
    /// A slot of the ring counts only when its stamp is that position on `clock`, which the search runs on
    /// across labels (nothing to clear).
    private let clock: Int
    private let mask: Int
    private let labelIsASCII: Bool

    init(
        scratch: OutlineSearchScratch, tables: OutlineSearchTables, clock: Int, openLow: UInt64, openHigh: UInt64,
        labelIsASCII: Bool
    ) {
        self.openLow = openLow
        self.openHigh = openHigh
        ring = scratch.ring
        ringStamp = scratch.ringStamp
        origins = scratch.origins
        coverage = scratch.coverage
        crossing = scratch.crossing
        endingTerms = tables.endingTerms
        termLengths = tables.termLengths
        self.clock = clock
        mask = scratch.slots - 1
        self.labelIsASCII = labelIsASCII
    }

    /// Folded `position` comes from label scalar `scalar` (non-ASCII labels: where an occurrence starts and ends).
    @inline(__always)
    func origin(of position: Int, is scalar: Int) {
        origins[position & mask] = UInt32(truncatingIfNeeded: scalar)
    }

    /// The terms whose last occurrence ended far enough back to allow one ending at `position`.
    @inline(__always)
    mutating func reopen(at position: Int) {
        let slot = (clock &+ position) & mask
        guard ringStamp[slot] == clock &+ position else { return }
        ringStamp[slot] = -1
        openLow |= ring[2 &* slot]
        openHigh |= ring[2 &* slot &+ 1]
    }

    /// Rule: occurrences of one term are taken left to right without overlapping (in the folded label). Of the
    /// terms that end at `state` (the folded symbol at `position` is their last), each one open takes this
    /// occurrence and stays closed until the position where its next occurrence may start after this one's end.
    /// The bits make each position cost two words, whatever the terms' nesting, and each occurrence taken one slot.
    @inline(__always)
    mutating func take(endingAt state: Int, position: Int) {
        let low = endingTerms[2 &* state] & openLow
        let high = endingTerms[2 &* state &+ 1] & openHigh
        guard low | high != 0 else { return }
        openLow &= ~low
        openHigh &= ~high
        seenLow |= low
        seenHigh |= high
        var bits = low
        while bits != 0 {
            reopenLater(bits.trailingZeroBitCount, endingAt: position)
            bits &= bits &- 1
        }
        bits = high
        while bits != 0 {
            reopenLater(64 &+ bits.trailingZeroBitCount, endingAt: position)
            bits &= bits &- 1
        }
        // Terms are numbered from the shortest: the longest taken here is the highest bit.
        let longest = high != 0 ? termLengths[127 &- high.leadingZeroBitCount] : termLengths[63 &- low.leadingZeroBitCount]
        cover(length: longest, endingAt: position)
    }

    /// Term `t` takes its occurrence ending at folded `position`, and opens again where its next occurrence would
    /// start after this one.
    @inline(__always)
    private mutating func reopenLater(_ t: Int, endingAt position: Int) {
        let again = clock &+ position &+ termLengths[t]
        let slot = again & mask
        if ringStamp[slot] != again {
            ringStamp[slot] = again
            ring[2 &* slot] = 0
            ring[2 &* slot &+ 1] = 0
        }
        ring[2 &* slot &+ t >> 6] |= 1 << UInt64(t & 63)
        taken &+= 1
    }

    /// The occurrences taken at one position are kept as the longest of them, the folded positions
    /// (position - length, position]; the shorter ones lie inside it, so they add no covered scalar and no crossed
    /// boundary to the ranges. Occurrences come in order of their end, so one that overlaps the pending span
    /// joins it: two overlapping spans whose inner boundaries are all crossed make one such span.
    @inline(__always)
    private mutating func cover(length: Int, endingAt position: Int) {
        let start = position &+ 1 &- length
        // The occurrence over the label scalars [from, to).
        let from = labelIsASCII ? start : Int(origins[start & mask])
        let to = labelIsASCII ? position &+ 1 : Int(origins[position & mask]) &+ 1
        if from < spanEnd {
            spanStart = min(spanStart, from)
        } else {
            flush()
            spanStart = from
        }
        spanEnd = to
    }

    /// The pending span, kept as differences for the search's `finish` (an empty span adds nothing).
    @inline(__always)
    mutating func flush() {
        let from = spanStart, to = spanEnd
        spanStart = 0
        spanEnd = 0
        guard to > from else { return }
        coverage[from] &+= 1
        coverage[to] &-= 1
        if to - from > 1 {
            crossing[from + 1] &+= 1
            crossing[to] &-= 1
        }
    }
}

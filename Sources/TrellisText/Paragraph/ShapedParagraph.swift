import CHarfBuzzShim
import Synchronization

/// A paragraph shaped once: its text after white-space processing, each scalar's face, bidi level,
/// line-break class and advance from shaping the whole paragraph, and where HarfBuzz says a line edge
/// must be shaped again. Layout at any width reads it and shapes nothing but such edges. A class: every width, and
/// the shaping cache, share one (its arrays are never copied or retained one by one).
public final class ShapedParagraph: Sendable {
    /// The text laid out (collapsible spaces collapsed), as scalars.
    let scalars: [UInt32]
    /// Per scalar of `scalars`: its UTF-16 offset in the text as sent, then (one past the end) the
    /// text's UTF-16 length.
    let utf16: [Int32]
    /// UAX #9 embedding level per scalar (paragraph direction from the first strong character).
    let levels: [UInt8]
    /// 1 where a UAX #29 extended grapheme cluster starts.
    let graphemeStarts: [UInt8]
    /// The face index (into the font's faces) per scalar.
    let faces: [UInt8]
    /// The script each scalar is shaped in (common and inherited resolved to their neighbours').
    let scripts: [UInt32]
    /// UAX #14 line-break class (ICU's) and `tfont_char_classes` bits per scalar.
    let lineBreakClasses: [UInt8]
    let characterBits: [UInt8]
    /// Rule: position[i] is the advance of scalars[0..<i] in 1/65536 px, each bidi run
    /// shaped whole (an advance inside a ligature split evenly among its grapheme clusters).
    let positions: [Int64]
    /// Where a line edge before the scalar must be shaped again: bit 0 where HarfBuzz marks it unsafe
    /// to break, bit 1 where it falls inside a glyph cluster.
    let unsafe: [UInt8]
    /// The bidi runs (maximal ranges of one level, control characters apart): their starts.
    let runStarts: [Int32]
    /// Rule for `width`: runCeilings[k] is the sum of the first k runs' advances, each rounded up to 1/64 px.
    let runCeilings: [Int64]
    /// The text is right to left (its first strong character is, as `dir="auto"` has it): the edge `x` is measured from.
    public let isRightToLeft: Bool
    /// The bidi paragraphs when the text has several (each starts after a kept line feed), in order: each takes its own direction from its first strong character (left to right without one), as
    /// `unicode-bidi: plaintext` has it; empty when every paragraph's direction is the text's (`isRightToLeft`).
    let bidiParagraphs: [BidiParagraph]

    struct BidiParagraph: Sendable {
        var start: Int32
        var isRightToLeft: Bool
    }
    /// The white-space processing the text went through (what hangs at a line's end).
    let whiteSpace: WhiteSpace
    /// The scalars of the text as sent (before white-space processing): a request that finds the paragraph kept counts
    /// its steps by them without counting the text again.
    let sentScalars: Int
    /// Rule: a kept line feed is a forced break: the position after each, in order.
    let forcedBreaks: [Int32]
    /// Kept tabs, each run of them (one control item in Blink) in order: they advance to the next tab stop, so their
    /// width depends on where the line has got to.
    let tabRuns: [TabRun]

    /// No scalar's advance is negative (no negative letter spacing, no font that moves back): `positions` never
    /// decreases, so where a line stops fitting can be searched for.
    let isMonotone: Bool
    /// The text keeps a carriage return (in `pre`, `pre-wrap` and `break-spaces`): its bidi levels have a part after it.
    let hasCarriageReturn: Bool
    /// The one face every scalar but the control characters is in, or -1 when there are several.
    let onlyFace: Int
    /// In several faces: the runs of one face in order (the control characters a run of none, -1), so that a line's
    /// faces are found per run it crosses rather than per scalar; empty in one face.
    let faceRuns: [FaceRun]

    struct FaceRun: Sendable {
        var start: Int32
        var face: Int16
    }
    /// ICU's line-break boundaries over the whole text (1 before a scalar where one is), once a line breaking asked
    /// for them: kept with the paragraph, so that a later request that finds it in the shaping cache does not run
    /// ICU over it again (the cache counts their byte a scalar from the start).
    let icuBoundaries = Mutex<[UInt8]?>(nil)

    struct TabRun: Sendable {
        var start: Int32
        var end: Int32
    }

    /// Where a line may end, the same from every line start (`BreakOpportunities.contextFree`: a text of Latin letters,
    /// digits, punctuation and spaces), each with its visible end, kept when a line's width there is its positions'
    /// width: one left-to-right bidi run whose positions never decrease, no kept tab or line feed, spaces that break
    /// normally, and no visible end where HarfBuzz marks the edge unsafe. A line from a start where the edge is safe is
    /// then found by a search over them (`ParagraphShaper.keptBreaksLine`); empty where they are not kept.
    let keptBreaks: [KeptBreak]

    struct KeptBreak: Sendable {
        var end: Int32
        var visible: Int32
    }

    init(
        scalars: [UInt32], utf16: [Int32], levels: [UInt8], graphemeStarts: [UInt8], faces: [UInt8], scripts: [UInt32],
        lineBreakClasses: [UInt8], characterBits: [UInt8], positions: [Int64], unsafe: [UInt8], runStarts: [Int32],
        runCeilings: [Int64], isRightToLeft: Bool, bidiParagraphs: [BidiParagraph] = [], whiteSpace: WhiteSpace, sentScalars: Int,
        forcedBreaks: [Int32], tabRuns: [TabRun]
    ) {
        self.scalars = scalars
        self.utf16 = utf16
        self.levels = levels
        self.graphemeStarts = graphemeStarts
        self.faces = faces
        self.scripts = scripts
        self.lineBreakClasses = lineBreakClasses
        self.characterBits = characterBits
        self.positions = positions
        self.unsafe = unsafe
        self.runStarts = runStarts
        self.runCeilings = runCeilings
        self.isRightToLeft = isRightToLeft
        self.bidiParagraphs = bidiParagraphs
        self.whiteSpace = whiteSpace
        self.sentScalars = sentScalars
        self.forcedBreaks = forcedBreaks
        self.tabRuns = tabRuns
        // (Both scans over buffers: a check on each element cost more than the comparison.)
        precondition(positions.count == scalars.count + 1 && faces.count == scalars.count)
        hasCarriageReturn = scalars.contains(WhiteSpaceProcessing.carriageReturn)
        isMonotone = positions.withUnsafeBufferPointer { positions in
            for i in 0..<scalars.count where positions[i + 1] < positions[i] { return false }
            return true
        }
        onlyFace = scalars.withUnsafeBufferPointer { scalars in
            faces.withUnsafeBufferPointer { faces in
                var only = -1
                for i in 0..<scalars.count where !WhiteSpaceProcessing.isControl(scalars[i]) {
                    if only < 0 {
                        only = Int(faces[i])
                    } else if only != Int(faces[i]) {
                        return -1
                    }
                }
                return only
            }
        }
        var runs: [FaceRun] = []
        if onlyFace < 0 {
            for i in 0..<scalars.count {
                let face = WhiteSpaceProcessing.isControl(scalars[i]) ? -1 : Int16(faces[i])
                if runs.last?.face != face { runs.append(FaceRun(start: Int32(i), face: face)) }
            }
        }
        faceRuns = runs
        keptBreaks = Self.keptBreaks(scalars, positions: positions, unsafe: unsafe, levels: levels, runs: runStarts.count,
            monotone: isMonotone, whiteSpace: whiteSpace, plain: forcedBreaks.isEmpty && tabRuns.isEmpty) ?? []
    }

    /// `keptBreaks`, or nil where a line's width is not its positions' width at every opportunity.
    private static func keptBreaks(
        _ scalars: [UInt32], positions: [Int64], unsafe: [UInt8], levels: [UInt8], runs: Int, monotone: Bool, whiteSpace: WhiteSpace,
        plain: Bool
    ) -> [KeptBreak]? {
        guard plain, monotone, runs == 1, whiteSpace.wraps, whiteSpace != .breakSpaces, let level = levels.first, level & 1 == 0
        else { return nil }
        // (Where spaces hang: every style that wraps but `break-spaces`.)
        guard let found = scalars.withUnsafeBufferPointer(BreakOpportunities.contextFree) else { return nil }
        let count = scalars.count
        let safe = found.withUnsafeBufferPointer { found in
            unsafe.withUnsafeBufferPointer { unsafe in
                for kept in found {
                    let visible = Int(kept.visible)
                    if visible > 0 && visible < count && unsafe[visible] != 0 { return false }
                }
                return true
            }
        }
        return safe ? found : nil
    }

    /// Scalars laid out.
    public var count: Int { scalars.count }
}

extension ShapedParagraph {
    /// The bidi run scalar `i` is in: the last run starting at or before it (most paragraphs have one run; the
    /// others a few, searched: a run per scalar would cost the shaping cache 4 bytes a scalar).
    @inline(__always)
    func run(of i: Int) -> Int {
        let count = runStarts.count
        if count <= 1 { return 0 }
        var low = 0
        var high = count
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(runStarts[middle]) <= i { low = middle } else { high = middle }
        }
        return low
    }

    /// The end of bidi run `run`.
    func runEnd(_ run: Int) -> Int { run + 1 < runStarts.count ? Int(runStarts[run + 1]) : scalars.count }

    /// Rule for `width`: the advance of scalars[start..<end] from the whole paragraph's shaping, each
    /// bidi run's part rounded up to 1/64 px.
    func approximateWidth(_ start: Int, _ end: Int) -> Int64 {
        guard end > start else { return 0 }
        let first = run(of: start)
        let last = run(of: end - 1)
        if first == last { return Self.ceiling(positions[end] - positions[start]) }
        return Self.ceiling(positions[runEnd(first)] - positions[start]) + runCeilings[last] - runCeilings[first + 1]
            + Self.ceiling(positions[end] - positions[Int(runStarts[last])])
    }

    /// Rounds up to a multiple of 1/64 px (1024 units of 1/65536 px).
    static func ceiling(_ value: Int64) -> Int64 {
        value <= 0 ? 0 : (value + 1023) / 1024 * 1024
    }

    /// Rule: spaces at a line's end (U+0020 and the other space separators) hang.
    static func hangs(_ scalar: UInt32) -> Bool {
        scalar == 0x20 || scalar == 0x1680 || (0x2000...0x2006).contains(scalar) || (0x2008...0x200A).contains(scalar)
            || scalar == 0x205F || scalar == 0x3000
    }

    /// Whether `scalar` is one that can hang (at most U+0020, or from U+1680 to U+3000): most scalars, letters of every
    /// script from U+0021 to U+167F and past U+3000, are not.
    static func mayHang(_ scalar: UInt32) -> Bool { scalar <= 0x20 || (scalar >= 0x1680 && scalar <= 0x3000) }

    /// Rule: at a line's end a forced break (its line feed, and a carriage return before it) is never drawn, and where
    /// spaces hang (not in `pre` or `break-spaces`) neither are the spaces and tabs before it.
    func hangs(_ i: Int) -> Bool {
        let scalar = scalars[i]
        guard Self.mayHang(scalar) else { return false }
        if scalar == WhiteSpaceProcessing.lineFeed || scalar == WhiteSpaceProcessing.carriageReturn { return true }
        return whiteSpace.spacesHang && (Self.hangs(scalar) || scalar == WhiteSpaceProcessing.tab)
    }

    /// The end of what is visible on a line [start, end): its trailing hanging spaces and forced break left out.
    func visibleEnd(_ start: Int, _ end: Int) -> Int {
        var visible = end
        while visible > start && hangs(visible - 1) { visible -= 1 }
        return visible
    }

    /// The end of the forced-break segment `start` is in: just after the next kept line feed, or the paragraph's end.
    func segmentEnd(from start: Int) -> Int {
        let next = forcedBreaks.countNotAfter(start) { $0 }
        return next < forcedBreaks.count ? Int(forcedBreaks[next]) : count
    }

    /// Whether the bidi paragraph `position` is in is right to left.
    func isRightToLeft(at position: Int) -> Bool {
        guard !bidiParagraphs.isEmpty else { return isRightToLeft }
        return bidiParagraphs[max(bidiParagraphs.countNotAfter(position) { $0.start } - 1, 0)].isRightToLeft
    }

    /// The first tab run ending after `position` (tabRuns.count when none does).
    func firstTabRun(endingAfter position: Int) -> Int {
        tabRuns.countNotAfter(position) { $0.end }
    }

    /// The UTF-16 offset in the text as sent just after scalar `index - 1` (for ends of visible text).
    func utf16End(after index: Int) -> Int {
        guard index > 0 else { return 0 }
        let scalar = scalars[index - 1]
        return Int(utf16[index - 1]) + (scalar >= 0x10000 ? 2 : 1)
    }
}

extension Array {
    /// How many elements from the start have a key at most `position`, for keys that never decrease along the array
    /// (a binary search: the index of the first element whose key is past `position`).
    fileprivate func countNotAfter(_ position: Int, key: (Element) -> Int32) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if Int(key(self[middle])) <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

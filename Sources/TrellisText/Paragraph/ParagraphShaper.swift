import CHarfBuzzShim
import TrellisCore

/// Shapes paragraphs in one font: white-space processing, then as `TextMeasurer` does (bidi runs,
/// a face per grapheme cluster, runs by face and script shaped by HarfBuzz), keeping every scalar's
/// advance so that layout at any width never shapes the paragraph again. One shaper serves one
/// request on one thread.
public final class ParagraphShaper {
    public let font: TextFont
    /// Each face at the size, made on first use.
    private let faces: SizedFaces
    /// Shaping results for one piece (reused).
    // One request on one thread reads and writes these, never overlapping: the dynamic exclusivity check cost more
    // than a word's lookup.
    @exclusivity(unchecked) private var pieceAdvances: [Int64] = []
    @exclusivity(unchecked) private var pieceFlags: [UInt8] = []
    /// Each word shaped so far, for pieces shaped word by word.
    @exclusivity(unchecked) private var words = WordShapes()
    /// Whether pieces are shaped word by word where the rule allows (tests compare with shaping each piece whole).
    var shapesWordByWord = true
    /// Words taken from `words` instead of shaped since the shaper was made (for tests).
    @exclusivity(unchecked) private(set) var wordsReused = 0
    /// The scalars of the text as sent and each scalar's advance, for the paragraph being shaped (reused: each array
    /// made anew cost a tenth of a short paragraph's analysis).
    @exclusivity(unchecked) private var sentScratch: [UInt32] = []
    @exclusivity(unchecked) private var advanceScratch: [Int64] = []
    /// ICU's script of each scalar, before `resolveScripts` (reused as the two above).
    @exclusivity(unchecked) private var scriptScratch: [UInt32] = []
    /// A piece's words: each one's scalars and where `words` keeps its shaping (-1: not kept). Reused.
    @exclusivity(unchecked) private var pieceWords: [PieceWord] = []
    private struct PieceWord {
        var start: Int32
        var end: Int32
        var kept: Int32
    }
    /// `isShapeable`'s answer for each ASCII byte, found on first use.
    @exclusivity(unchecked) private var shapeableASCII = [UInt8](repeating: 0, count: 0x80)
    // (A shaper serves one request on one thread, and its counts are read and written apart: the dynamic exclusivity
    // check on each cost a list's kept row about 150 instructions.)
    /// Edges shaped again since the shaper was made (for tests and the benchmark).
    @exclusivity(unchecked) public private(set) var edgeShapings = 0
    /// Scalars ICU's line breaker ran over since the shaper was made: the cost model's steps for finding break
    /// opportunities, which callers count on their meter.
    @exclusivity(unchecked) public private(set) var lineBreakWork = 0
    /// Whether lines a paragraph's kept opportunities decide are found by a search over them (`keptBreaksLine`); false
    /// for tests that compare it with the breaker.
    var scansKeptBreaks = true
    /// The ellipsis every clamped line ends in and the hyphen a line broken at a soft hyphen shows, each shaped on
    /// first use (`.some(nil)`: no face has it).
    var ellipsisShape: Generated??
    var hyphenShape: Generated??
    /// The primary face's space advance in px (tab stops are measured in it), found on first use.
    private var space: Float?
    /// Rule: each face's rounded ascent and descent with half its line gap, at the font's size.
    private(set) lazy var faceBoxes: [(ascent: Double, descent: Double)] = font.faces.map { face in
        let metrics = face.lineMetrics(size: font.size)
        let half = (metrics.lineGap / 2).rounded(.down)
        return (metrics.ascent + half, metrics.descent + metrics.lineGap - half)
    }

    public init(font: TextFont) {
        self.font = font
        faces = SizedFaces(font: font)
    }

    /// The paragraph shaped once, or why it cannot be.
    public func shape(_ text: String, whiteSpace: WhiteSpace) -> Result<ShapedParagraph, TextRefusal> {
        check(text, whiteSpace: whiteSpace).flatMap { shape($0, whiteSpace) }
    }

    /// Why `shape` would refuse the text, found without shaping it (its characters, its grapheme clusters' lengths and
    /// a face for each cluster, the checks `shape` makes first); nil when it would shape it.
    public func refusal(of text: String, whiteSpace: WhiteSpace) -> TextRefusal? {
        if isShapeable(text) { return nil }
        guard case .failure(let refusal) = check(text, whiteSpace: whiteSpace) else { return nil }
        return refusal
    }

    /// Whether `check` surely passes the text, read off its scalars alone: each is one of those that are always a
    /// grapheme cluster of their own and never forbidden (printable ASCII, tab, line feed, carriage return, and U+00A0
    /// to U+024F but the soft hyphen; white-space processing keeps them or makes spaces of them, and a carriage return
    /// before a line feed joins it in a cluster that takes the face around it), and a face covers each alone, as
    /// `ClusterFaces.choose` finds it. False says only that the whole check must run.
    private func isShapeable(_ text: String) -> Bool {
        func shapeable(_ value: UInt32) -> Bool {
            guard (0x20...0x7E).contains(value) || value == 0x09 || value == 0x0A || value == 0x0D
                || ((0xA0...0x24F).contains(value) && value != 0xAD)
            else { return false }
            return ClusterFaces.coversAlone(value, faces: faces) == true
        }
        guard shapeable(0x20) else { return false }
        // ASCII is read off its bytes, each byte's answer kept for the request (0: not asked yet, 1: yes, 2: no).
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            shapeableASCII.withUnsafeMutableBufferPointer { known in
                for byte in bytes {
                    if byte >= 0x80 { return nil }
                    if known[Int(byte)] == 0 { known[Int(byte)] = shapeable(UInt32(byte)) ? 1 : 2 }
                    if known[Int(byte)] == 2 { return false }
                }
                return true
            }
        }
        if let ascii = ascii ?? nil { return ascii }
        return text.unicodeScalars.allSatisfy { shapeable($0.value) }
    }

    /// A text as `shape` has checked it: white-space processed, its bidi levels, grapheme clusters, scripts found and
    /// each scalar's face.
    private struct Checked {
        var scalars: [UInt32]
        var utf16: [Int32]
        var levels: [UInt8]
        var clusterStarts: [UInt8]
        var scriptsFound: [UInt32]
        var faceOf: [Int]
        /// The scalars of the text as sent.
        var sentScalars: Int
    }

    /// The steps of `shape` before shaping, each of which may refuse the text.
    private func check(_ text: String, whiteSpace: WhiteSpace) -> Result<Checked, TextRefusal> {
        // Rule: a text with a C0 or C1 control other than tab, line feed and carriage return, DEL or an explicit bidi
        // embedding, override or isolate is refused (checked on the text as sent).
        var original: [UInt32] = []
        swap(&original, &sentScratch)
        defer {
            original.removeAll(keepingCapacity: true)
            swap(&original, &sentScratch)
        }
        original.reserveCapacity(text.utf8.count)
        // ASCII (one scalar a byte) is read off its bytes, the rest scalar by scalar.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            original.append(contentsOf: repeatElement(0, count: bytes.count))
            original.withUnsafeMutableBufferPointer { scalars in
                for i in 0..<bytes.count { scalars[i] = UInt32(bytes[i]) }
            }
            return true
        } ?? false
        if !ascii {
            original.removeAll(keepingCapacity: true)
            for scalar in text.unicodeScalars { original.append(scalar.value) }
        }
        for (offset, scalar) in original.enumerated()
        where TextCharacters.isForbidden(scalar) && !TextCharacters.isWhiteSpaceControl(scalar) {
            return .failure(.forbidden(scalar: scalar, offset: offset))
        }
        var scalars: [UInt32] = []
        var utf16: [Int32] = []
        scalars.reserveCapacity(original.count)
        utf16.reserveCapacity(original.count + 1)
        WhiteSpaceProcessing.process(original, whiteSpace, scalars: &scalars, utf16: &utf16)
        let count = scalars.count
        var levels = [UInt8](repeating: 0, count: count)
        var clusterStarts = [UInt8](repeating: 0, count: count)
        var scriptsFound: [UInt32] = []
        swap(&scriptsFound, &scriptScratch)
        scriptsFound.removeAll(keepingCapacity: true)
        scriptsFound.append(contentsOf: repeatElement(0, count: count))
        if count > 0 {
            guard tfont_analyze(scalars, count, &levels, &clusterStarts, &scriptsFound) == 0 else { return .failure(.outOfMemory) }
        }
        if let refusal = ClusterFaces.checkLengths(clusterStarts) { return .failure(refusal) }
        // Shaping a paragraph counts its work elsewhere (a step per scalar, by its callers).
        var unmetered = WorkMeter()
        switch ClusterFaces.choose(
            scalars, clusterStarts: clusterStarts, faces: faces,
            // (Without U+FE0F no cluster is in emoji presentation: nothing to ask per cluster.)
            emojiPresentation: scalars.contains(0xFE0F) ? { start, end in Self.isEmojiPresentation(scalars, start, end) } : nil,
            meter: &unmetered, counting: false)
        {
        case .success(let faceOf):
            return .success(Checked(
                scalars: scalars, utf16: utf16, levels: levels, clusterStarts: clusterStarts, scriptsFound: scriptsFound, faceOf: faceOf,
                sentScalars: original.count))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    private func shape(_ checked: Checked, _ whiteSpace: WhiteSpace) -> Result<ShapedParagraph, TextRefusal> {
        let (scalars, utf16, levels, clusterStarts, scriptsFound, faceOf) =
            (checked.scalars, checked.utf16, checked.levels, checked.clusterStarts, checked.scriptsFound, checked.faceOf)
        let count = scalars.count
        var classes = [UInt8](repeating: 0, count: count)
        var bits = [UInt8](repeating: 0, count: count)
        if count > 0 { tfont_char_classes(scalars, count, &classes, &bits) }
        let scripts = TextMeasurer.resolveScripts(scriptsFound, scalars)
        // Given back for the next paragraph (alone once `checked` is gone).
        scriptScratch = scriptsFound
        // Runs: bidi runs, and within them pieces by face and script, each shaped with the whole
        // paragraph as context.
        var advances: [Int64] = []
        swap(&advances, &advanceScratch)
        defer {
            advances.removeAll(keepingCapacity: true)
            swap(&advances, &advanceScratch)
        }
        advances.append(contentsOf: repeatElement(0, count: count))
        var unsafe = [UInt8](repeating: 0, count: count)
        var runStarts: [Int32] = []
        var runStart = 0
        var forcedBreaks: [Int32] = []
        var tabRuns: [ShapedParagraph.TabRun] = []
        while runStart < count {
            // Rule: a run is a bidi run's text between control characters (Blink's text items end at each one: a
            // line's width rounds each part up on its own); each control character is a run of its own, never shaped
            // (a run of tabs is one run).
            var runEnd = runStart + 1
            let control = WhiteSpaceProcessing.isControl(scalars[runStart])
            if control {
                if scalars[runStart] == WhiteSpaceProcessing.tab {
                    while runEnd < count && scalars[runEnd] == WhiteSpaceProcessing.tab { runEnd += 1 }
                    tabRuns.append(ShapedParagraph.TabRun(start: Int32(runStart), end: Int32(runEnd)))
                } else if scalars[runStart] == WhiteSpaceProcessing.lineFeed {
                    forcedBreaks.append(Int32(runEnd))
                }
            } else {
                while runEnd < count && levels[runEnd] == levels[runStart] && !WhiteSpaceProcessing.isControl(scalars[runEnd]) {
                    runEnd += 1
                }
                // Rule (Blink's `InsertBreakOpportunityAfterLeadingPreservedSpaces`): where spaces are kept and lines
                // wrap, the spaces that start the text or follow a line feed are an item of their own, a break
                // opportunity after them: the text after them is another run.
                if whiteSpace == .preWrap || whiteSpace == .breakSpaces, scalars[runStart] == WhiteSpaceProcessing.space,
                    runStart == 0 || scalars[runStart - 1] == WhiteSpaceProcessing.lineFeed
                {
                    var spacesEnd = runStart + 1
                    while spacesEnd < runEnd && scalars[spacesEnd] == WhiteSpaceProcessing.space { spacesEnd += 1 }
                    runEnd = spacesEnd
                }
            }
            runStarts.append(Int32(runStart))
            if control {
                runStart = runEnd
                continue
            }
            var pieceStart = runStart
            while pieceStart < runEnd {
                let pieceEnd = faceOf.withUnsafeBufferPointer { faceOf in
                    scripts.withUnsafeBufferPointer { scripts in
                        var end = pieceStart + 1
                        while end < runEnd && faceOf[end] == faceOf[pieceStart] && scripts[end] == scripts[pieceStart] { end += 1 }
                        return end
                    }
                }
                guard
                    shapeByWords(
                        scalars, bits, clusterStarts, pieceStart, pieceEnd, rtl: levels[runStart] & 1, script: scripts[pieceStart],
                        face: faceOf[pieceStart])
                else { return .failure(.outOfMemory) }
                let length = pieceEnd - pieceStart
                // (Both copied through pointers: element by element with a check each cost several times the copy.)
                pieceAdvances.withUnsafeBufferPointer { shaped in
                    advances.withUnsafeMutableBufferPointer { advances in
                        guard let from = shaped.baseAddress, let to = advances.baseAddress, length > 0 else { return }
                        (to + pieceStart).update(from: from, count: length)
                    }
                }
                pieceFlags.withUnsafeBufferPointer { flags in
                    unsafe.withUnsafeMutableBufferPointer { unsafe in
                        guard let flags = flags.baseAddress, let unsafe = unsafe.baseAddress else { return }
                        let piece = unsafe + pieceStart
                        // An edge inside a glyph cluster (flag bit 0 clear: bit 1 here), or one HarfBuzz marks unsafe
                        // (flag bit 1: bit 0 here), is shaped again.
                        for k in 1..<max(1, length) {
                            let flag = flags[k]
                            piece[k] = (flag >> 1) & 1 | (~flag & 1) << 1
                        }
                    }
                }
                Self.splitLigatures(&advances, pieceFlags, clusterStarts, pieceStart, pieceEnd)
                // Rule: letter and word spacing follow each glyph cluster, on the advance of the scalar that starts it.
                if !font.spacing.isNone {
                    for i in pieceStart..<pieceEnd where pieceFlags[i - pieceStart] & 1 != 0 {
                        advances[i] += font.spacing.clusterSpacing(scalars[i], index: i, script: scripts[pieceStart])
                    }
                }
                pieceStart = pieceEnd
            }
            runStart = runEnd
        }
        let directions = Self.bidiParagraphs(scalars)
        var positions = [Int64](repeating: 0, count: count + 1)
        advances.withUnsafeBufferPointer { advances in
            positions.withUnsafeMutableBufferPointer { positions in
                for i in 0..<count { positions[i + 1] = positions[i] + advances[i] }
            }
        }
        var runCeilings = [Int64](repeating: 0, count: runStarts.count + 1)
        for run in runStarts.indices {
            let end = run + 1 < runStarts.count ? Int(runStarts[run + 1]) : count
            runCeilings[run + 1] = runCeilings[run] + ShapedParagraph.ceiling(positions[end] - positions[Int(runStarts[run])])
        }
        return .success(
            ShapedParagraph(
                scalars: scalars, utf16: utf16, levels: levels, graphemeStarts: clusterStarts, faces: Self.faceIndices(faceOf),
                scripts: scripts, lineBreakClasses: classes, characterBits: bits, positions: positions, unsafe: unsafe,
                runStarts: runStarts, runCeilings: runCeilings, isRightToLeft: directions.isRightToLeft,
                bidiParagraphs: directions.paragraphs, whiteSpace: whiteSpace, sentScalars: checked.sentScalars, forcedBreaks: forcedBreaks, tabRuns: tabRuns))
    }

    /// Rule (UAX #9 P2-P3, `dir="auto"` with `unicode-bidi: plaintext`): the text's direction is its first strong
    /// character's (left to right without one), and each of its paragraphs (after each kept line feed, as Blink splits
    /// them; not after a carriage return) has its own, left to right without a strong character of its own; the first
    /// paragraph's from its text before a carriage return only (ICU's first paragraph ends there, and Blink gives the
    /// block's first paragraph that one's level). The paragraphs are listed only when one's direction is not the text's.
    static func bidiParagraphs(_ scalars: [UInt32]) -> (isRightToLeft: Bool, paragraphs: [ShapedParagraph.BidiParagraph]) {
        var start: UInt32 = 0
        var direction: UInt8 = 2
        var first: UInt8 = 2
        let count = scalars.withUnsafeBufferPointer { tfont_bidi_paragraphs($0.baseAddress, $0.count, &start, &direction, 1, &first) }
        let isRightToLeft = first == 1
        guard count > 1 else {
            return (isRightToLeft, (direction == 1) == isRightToLeft ? [] : [ShapedParagraph.BidiParagraph(start: 0, isRightToLeft: direction == 1)])
        }
        var starts = [UInt32](repeating: 0, count: count)
        var directions = [UInt8](repeating: 2, count: count)
        _ = scalars.withUnsafeBufferPointer { tfont_bidi_paragraphs($0.baseAddress, $0.count, &starts, &directions, count, &first) }
        guard directions.contains(where: { ($0 == 1) != isRightToLeft }) else { return (isRightToLeft, []) }
        return (isRightToLeft, (0..<count).map { ShapedParagraph.BidiParagraph(start: Int32(starts[$0]), isRightToLeft: directions[$0] == 1) })
    }

    /// Each scalar's face as the paragraph keeps it, a byte (one pass into the new array: `map` appended each).
    static func faceIndices(_ faceOf: [Int]) -> [UInt8] {
        faceOf.withUnsafeBufferPointer { faceOf in
            [UInt8](unsafeUninitializedCapacity: faceOf.count) { bytes, initialized in
                for i in 0..<faceOf.count { bytes[i] = UInt8(faceOf[i]) }
                initialized = faceOf.count
            }
        }
    }

    /// Rule: a cluster with the emoji variation selector U+FE0F (a character whose
    /// default presentation is emoji but that a text face has, such as U+2615, stays in that face).
    static func isEmojiPresentation(_ scalars: [UInt32], _ start: Int, _ end: Int) -> Bool {
        scalars[start..<end].contains(0xFE0F)
    }

    /// Rule: a glyph cluster that covers several grapheme clusters (a ligature) gives each
    /// of them an even share of its advance, the first taking the remainder.
    static func splitLigatures(_ advances: inout [Int64], _ flags: [UInt8], _ graphemes: [UInt8], _ start: Int, _ end: Int) {
        var clusterStart = start
        while clusterStart < end {
            var clusterEnd = clusterStart + 1
            while clusterEnd < end && flags[clusterEnd - start] & 1 == 0 { clusterEnd += 1 }
            // A glyph cluster of one scalar has nothing to share.
            if clusterEnd == clusterStart + 1 {
                clusterStart = clusterEnd
                continue
            }
            var inner = 0
            for i in (clusterStart + 1)..<max(clusterStart + 1, clusterEnd) where graphemes[i] != 0 { inner += 1 }
            if inner > 0 {
                let share = advances[clusterStart] / Int64(inner + 1)
                advances[clusterStart] -= share * Int64(inner)
                for i in (clusterStart + 1)..<clusterEnd where graphemes[i] != 0 { advances[i] = share }
            }
            clusterStart = clusterEnd
        }
    }

    /// Shapes scalars[start..<end] (one face, script and direction; the rest is context) into `pieceAdvances` and
    /// `pieceFlags`, word by word where the face and script allow it (`WordShapes`): each word kept before takes its
    /// kept shaping; the others are shaped in place (the piece whole when they are most of it) and kept.
    private func shapeByWords(
        _ scalars: [UInt32], _ bits: [UInt8], _ clusterStarts: [UInt8], _ start: Int, _ end: Int, rtl: UInt8, script: UInt32, face: Int
    ) -> Bool {
        let count = end - start
        guard count > 1, shapesWordByWord, let font = sizedFont(face), tfont_font_shapes_words_alone(font, script) == 1 else {
            return shapePiece(scalars, start, end, rtl: rtl, script: script, face: face)
        }
        if pieceAdvances.count < count {
            pieceAdvances = [Int64](repeating: 0, count: count)
            pieceFlags = [UInt8](repeating: 0, count: count)
        }
        let space = WhiteSpaceProcessing.space
        let mark = UInt8(TFONT_MARK)
        pieceWords.removeAll(keepingCapacity: true)
        var missed = 0
        scalars.withUnsafeBufferPointer { text in
            clusterStarts.withUnsafeBufferPointer { clusterStarts in
                var wordStart = start
                while wordStart < end {
                    // Rule: a word ends before a U+0020 that starts a grapheme cluster, and a U+0020 ends where the
                    // next grapheme cluster starts.
                    var wordEnd = wordStart + 1
                    while wordEnd < end && !(clusterStarts[wordEnd] != 0 && (text[wordEnd] == space || text[wordEnd - 1] == space)) {
                        wordEnd += 1
                    }
                    let word = UnsafeBufferPointer(rebasing: text[wordStart..<wordEnd])
                    let kept = bits[wordStart] & mark == 0 ? words.find(word, face: face, rtl: rtl, script: script) : nil
                    if kept == nil { missed += wordEnd - wordStart }
                    pieceWords.append(PieceWord(start: Int32(wordStart), end: Int32(wordEnd), kept: Int32(kept ?? -1)))
                    wordStart = wordEnd
                }
            }
        }
        // Most of the piece new: one shaping of the whole piece costs less than one per word (the same glyphs, by
        // the rule above).
        let whole = missed * 2 > count
        if whole {
            guard shapePiece(scalars, start, end, rtl: rtl, script: script, face: face) else { return false }
        }
        return scalars.withUnsafeBufferPointer { text in
            pieceAdvances.withUnsafeMutableBufferPointer { advances in
                pieceFlags.withUnsafeMutableBufferPointer { flags in
                    guard let advanceBase = advances.baseAddress, let flagBase = flags.baseAddress else { return false }
                    for word in pieceWords {
                        let wordStart = Int(word.start)
                        let at = wordStart - start
                        let length = Int(word.end) - wordStart
                        if word.kept >= 0 {
                            wordsReused += 1
                            words.copy(from: Int(word.kept), count: length, advances: advanceBase + at, flags: flagBase + at)
                            continue
                        }
                        if !whole {
                            guard tfont_font_shape_clusters(
                                font, text.baseAddress, text.count, wordStart, length, Int32(rtl), script, advanceBase + at, flagBase + at) == 0
                            else { return false }
                        }
                        if bits[wordStart] & mark == 0 && length <= WordShapes.maxWordScalars {
                            words.keep(
                                UnsafeBufferPointer(rebasing: text[wordStart..<Int(word.end)]), face: face, rtl: rtl, script: script,
                                advances: UnsafeBufferPointer(rebasing: advances[at..<at + length]),
                                flags: UnsafeBufferPointer(rebasing: flags[at..<at + length]))
                        }
                    }
                    return true
                }
            }
        }
    }

    /// Shapes scalars[start..<end] (the rest is context) into `pieceAdvances` and `pieceFlags`.
    private func shapePiece(_ scalars: [UInt32], _ start: Int, _ end: Int, rtl: UInt8, script: UInt32, face: Int) -> Bool {
        let count = end - start
        if pieceAdvances.count < count {
            pieceAdvances = [Int64](repeating: 0, count: count)
            pieceFlags = [UInt8](repeating: 0, count: count)
        }
        guard let font = sizedFont(face) else { return false }
        return tfont_font_shape_clusters(
            font, scalars, scalars.count, start, count, Int32(rtl), script, &pieceAdvances, &pieceFlags) == 0
    }

    /// Adds what ICU's line breaker ran over for `memory`'s paragraph to `lineBreakWork`.
    func countLineBreakWork(_ memory: ParagraphMemory) {
        lineBreakWork += memory.boundaries.takeWork()
    }

    /// Rule: the advance of scalars[start..<end] of one bidi run shaped on its own (the rest of
    /// the paragraph as context), as Chromium shapes a line edge again; nil when memory ran out.
    /// With `measuredEnd` (≤ end) only the advances of scalars before it count: the rest was shaped as their context.
    func reshape(_ paragraph: ShapedParagraph, _ start: Int, _ end: Int, measuredEnd: Int? = nil) -> Int64? {
        let measuredEnd = measuredEnd ?? end
        edgeShapings += 1
        var total: Int64 = 0
        var pieceStart = start
        while pieceStart < end {
            var pieceEnd = pieceStart + 1
            while pieceEnd < end && paragraph.faces[pieceEnd] == paragraph.faces[pieceStart]
                && paragraph.scripts[pieceEnd] == paragraph.scripts[pieceStart]
            {
                pieceEnd += 1
            }
            guard shapePiece(paragraph.scalars, pieceStart, pieceEnd, rtl: paragraph.levels[start] & 1,
                script: paragraph.scripts[pieceStart], face: Int(paragraph.faces[pieceStart]))
            else { return nil }
            for i in 0..<(pieceEnd - pieceStart) where pieceStart + i < measuredEnd { total += pieceAdvances[i] }
            // The piece's clusters take their spacing as the paragraph's do.
            if !font.spacing.isNone {
                let script = paragraph.scripts[pieceStart]
                for i in 0..<(pieceEnd - pieceStart) where pieceStart + i < measuredEnd && pieceFlags[i] & 1 != 0 {
                    total += font.spacing.clusterSpacing(paragraph.scalars[pieceStart + i], index: pieceStart + i, script: script)
                }
            }
            pieceStart = pieceEnd
        }
        return total
    }

    /// Face `index` at the size; nil when memory ran out.
    func sizedFont(_ index: Int) -> OpaquePointer? { faces.sized(index) }

    /// Rule: the primary face's advance of U+0020 in px, a float (Blink's `SimpleFontData::SpaceWidth`); 0 when memory
    /// ran out.
    func spaceAdvance() -> Float {
        if let space { return space }
        var advance: Int64 = 0
        var flags: UInt8 = 0
        let text: [UInt32] = [0x20]
        if let primary = sizedFont(font.primary),
            tfont_font_shape_clusters(primary, text, 1, 0, 1, 0, TextMeasurer.common, &advance, &flags) != 0
        {
            advance = 0
        }
        let width = Float(Double(advance) / Self.unit)
        space = width
        return width
    }
}

import CHarfBuzzShim
import TrellisCore

/// Measures texts in one font the way Chromium lays out `<span style="white-space: pre">`: bidi runs
/// (UAX #9), font fallback per grapheme cluster (UAX #29), runs by font and script shaped by HarfBuzz,
/// each bidi run's advance rounded up to 1/64 px. One measurer serves one request on one thread.
public final class TextMeasurer {
    public let font: TextFont
    let cache: MeasureCache?
    private let key: FontKey
    /// Each face at the size, made on first use.
    private let faces: SizedFaces
    /// What this measurer may still add to the shared cache: one request fills at most a share of it.
    private var storesLeft: Int
    private var bytesLeft: Int

    public init(font: TextFont, cache: MeasureCache? = nil) {
        self.font = font
        self.cache = cache
        key = font.key
        faces = SizedFaces(font: font)
        storesLeft = cache?.perRequestCapacity ?? 0
        bytesLeft = cache?.perRequestByteCapacity ?? 0
    }

    /// Rule for `width`: the width in CSS px, or why the text cannot be measured.
    public func width(of text: String) -> Result<Double, TextRefusal> {
        var meter = WorkMeter()
        return width(of: text, meter: &meter)
    }

    /// The width as above, counting its work on `meter` (a step per scalar looked up or shaped); `.stopped` once
    /// the meter says stop.
    public func width(of text: String, meter: inout WorkMeter) -> Result<Double, TextRefusal> {
        if text.isEmpty { return .success(0) }
        if let cached = cache?.width(of: text, in: key) { return .success(cached) }
        let scalars = text.unicodeScalars.map(\.value)
        let result = measure(scalars, &meter)
        if case .success(let width) = result, let cache, storesLeft > 0, bytesLeft > 0 {
            let bytes = MeasureCache.entryBytes(text)
            storesLeft -= 1
            bytesLeft -= bytes
            cache.store(width, of: text, in: key)
        }
        return result
    }

    /// Units: 1/65536 px, the 16.16 positions HarfBuzz returns at this scale.
    static let unitsPerPixel: Int64 = 65536
    /// Rule for `width`: each bidi run rounds up to a multiple of 1/64 px.
    static let roundingUnit: Int64 = 1024

    /// Rule: a grapheme cluster has at most this many scalars (UAX #15's stream-safe
    /// limit is 30 non-starters), so shaping one costs at most a fixed amount.
    public static let maxClusterScalars = 32
    /// Rule: a text's refusal names at most this many uncovered clusters, and measuring stops there.
    static let maxUncoveredListed = 8

    func measure(_ scalars: [UInt32], _ meter: inout WorkMeter) -> Result<Double, TextRefusal> {
        // Rule: a text with a C0 or C1 control, DEL or an explicit bidi embedding, override or isolate is refused.
        for (offset, scalar) in scalars.enumerated() where TextCharacters.isForbidden(scalar) {
            return .failure(.forbidden(scalar: scalar, offset: offset))
        }
        let count = scalars.count
        guard meter.advance(count) else { return .failure(.stopped) }
        var levels = [UInt8](repeating: 0, count: count)
        var clusterStarts = [UInt8](repeating: 0, count: count)
        var scripts = [UInt32](repeating: 0, count: count)
        guard tfont_analyze(scalars, count, &levels, &clusterStarts, &scripts) == 0 else { return .failure(.outOfMemory) }
        if let refusal = ClusterFaces.checkLengths(clusterStarts) { return .failure(refusal) }
        let faceOf: [Int]
        // A cluster with U+FE0F takes a color face, as in a paragraph (`ParagraphShaper.isEmojiPresentation`).
        let emojiPresentation: ((Int, Int) -> Bool)? =
            scalars.contains(0xFE0F) ? { start, end in ParagraphShaper.isEmojiPresentation(scalars, start, end) } : nil
        switch ClusterFaces.choose(
            scalars, clusterStarts: clusterStarts, faces: faces, emojiPresentation: emojiPresentation, meter: &meter, counting: true)
        {
        case .success(let chosen): faceOf = chosen
        case .failure(let refusal): return .failure(refusal)
        }
        // Rule: common and inherited characters join the script before them; paired brackets (`resolveScripts`).
        let resolved = Self.resolveScripts(scripts, scalars)
        // Rule for `width`: over the bidi runs, each run's advance (its font and script runs shaped in
        // the context of the whole text) rounded up to 1/64 px.
        var total: Int64 = 0
        var runStart = 0
        while runStart < count {
            var runEnd = runStart + 1
            while runEnd < count && levels[runEnd] == levels[runStart] { runEnd += 1 }
            var advance: Int64 = 0
            var pieceStart = runStart
            while pieceStart < runEnd {
                var pieceEnd = pieceStart + 1
                while pieceEnd < runEnd && faceOf[pieceEnd] == faceOf[pieceStart] && resolved[pieceEnd] == resolved[pieceStart] {
                    pieceEnd += 1
                }
                guard meter.advance(pieceEnd - pieceStart) else { return .failure(.stopped) }
                guard let font = faces.sized(faceOf[pieceStart]) else { return .failure(.outOfMemory) }
                if self.font.spacing.isNone {
                    var piece: Int64 = 0
                    guard tfont_font_shape(
                        font, scalars, count, pieceStart, pieceEnd - pieceStart, Int32(levels[runStart] & 1),
                        resolved[pieceStart], &piece) == 0
                    else { return .failure(.outOfMemory) }
                    advance += piece
                } else {
                    // Rule: letter and word spacing follow each glyph cluster (`TextSpacing.clusterSpacing`).
                    var advances = [Int64](repeating: 0, count: pieceEnd - pieceStart)
                    var flags = [UInt8](repeating: 0, count: pieceEnd - pieceStart)
                    guard tfont_font_shape_clusters(
                        font, scalars, count, pieceStart, pieceEnd - pieceStart, Int32(levels[runStart] & 1),
                        resolved[pieceStart], &advances, &flags) == 0
                    else { return .failure(.outOfMemory) }
                    self.font.spacing.apply(to: &advances, flags: flags, scalars, start: pieceStart, count: pieceEnd - pieceStart, script: resolved[pieceStart])
                    advance += advances.reduce(0, +)
                }
                pieceStart = pieceEnd
            }
            // (Negative spacing can make a run's advance negative: it counts as 0.)
            total += (max(advance, 0) + Self.roundingUnit - 1) / Self.roundingUnit * Self.roundingUnit
            runStart = runEnd
        }
        return .success(Double(total) / Double(Self.unitsPerPixel))
    }

    // The ISO 15924 tags as `tag` makes them, written out: a constant needs no lazy initialization, which a loop over
    // every scalar paid for at each access (`ScriptTagTests` checks them against `tag`).
    static let common: UInt32 = 0x5A79_7979  // "Zyyy"
    static let inherited: UInt32 = 0x5A69_6E68  // "Zinh"
    static let unknown: UInt32 = 0x5A7A_7A7A  // "Zzzz"

    static func tag(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { bytes in bytes.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// Blink's bound on the opening brackets its script runs remember.
    static let maxBrackets = 32

    /// Rule (Blink's `ScriptRunIterator`): common and inherited characters join the script before them (at the start,
    /// the first real script after them); a closing bracket paired with an opening one still open (UAX #9's pairs, the
    /// last 32 opened remembered) takes the opening one's script, and so do the common characters after it (between
    /// Han, Hiragana, Katakana and Bopomofo, the script it is in stays). A common character with Script_Extensions that
    /// lack the script before it (the middle dot U+00B7 in Arabic text) leaves that run: it and the common characters
    /// after it take the next real script when their extensions have it, else the first of them (Blink's preferred).
    static func resolveScripts(_ scripts: [UInt32], _ scalars: [UInt32]) -> [UInt32] {
        func isReal(_ script: UInt32) -> Bool { script != common && script != inherited && script != unknown }
        func isHan(_ script: UInt32) -> Bool { hanScripts.contains(script) }
        // ASCII: its letters are Latin, the rest Common, with no script extensions, so every character takes the
        // first letter's script (a closing bracket too: its opener has it), or all stay Common without a letter.
        if scalars.allSatisfy({ $0 < 0x80 }) {
            guard let first = scripts.first(where: isReal) else { return scripts }
            if scripts.allSatisfy({ $0 == first || !isReal($0) }) { return [UInt32](repeating: first, count: scripts.count) }
        }
        var resolved = scripts
        var current = scripts.first(where: isReal) ?? common
        // The open brackets: the bracket that closes each, and where it is.
        var open: [(closer: UInt32, at: Int)] = []
        // Where characters out of the run began, and the scripts all of them have.
        var pending: (start: Int, scripts: [UInt32])?
        // (Given what it changes rather than capturing it: a captured variable is boxed, and every access of the loop
        // below went through the box.)
        func settle(_ resolved: inout [UInt32], _ pending: inout (start: Int, scripts: [UInt32])?, before end: Int, next: UInt32?) {
            guard let out = pending else { return }
            var script = out.scripts[0]
            if let next, out.scripts.contains(next) { script = next }
            for k in out.start..<end { resolved[k] = script }
            pending = nil
        }
        for i in resolved.indices {
            if isReal(resolved[i]) {
                current = resolved[i]
                settle(&resolved, &pending, before: i, next: current)
                continue
            }
            resolved[i] = current
            guard scripts[i] == common else { continue }
            var pair: UInt32 = 0
            switch tfont_paired_bracket(scalars[i], &pair) {
            case 1:
                if open.count == maxBrackets { open.removeFirst() }
                open.append((pair, i))
            case 2:
                guard let k = open.lastIndex(where: { $0.closer == scalars[i] }) else { break }
                let script = resolved[open[k].at]
                open.removeSubrange(k...)
                if script != common && !(isHan(script) && isHan(current)) {
                    settle(&resolved, &pending, before: i, next: script)
                    resolved[i] = script
                    current = script
                    continue
                }
            default:
                break
            }
            // No ASCII character has script extensions (UCD's ScriptExtensions.txt starts at U+00B7): not asked.
            guard scalars[i] >= 0x80, let found = Self.scriptExtensions(scalars[i]) else { continue }
            if let out = pending {
                let both = out.scripts.filter(found.contains)
                if both.isEmpty {
                    settle(&resolved, &pending, before: i, next: nil)
                    pending = (i, found)
                } else {
                    pending = (out.start, both)
                }
            } else if !found.contains(current) {
                pending = (i, found)
            }
        }
        settle(&resolved, &pending, before: resolved.count, next: nil)
        return resolved
    }

    /// At most this many of a character's script extensions are read (Blink keeps fewer).
    static let maxExtensions = 32

    /// A character's script extensions (at most `maxExtensions`), nil when it has none: read into room on the stack
    /// (an array made for them per paragraph cost a tenth of resolving a short one's scripts).
    private static func scriptExtensions(_ scalar: UInt32) -> [UInt32]? {
        var room = InlineArray<32, UInt32>(repeating: 0)
        let capacity = min(maxExtensions, room.count)
        return withUnsafeMutablePointer(to: &room) { room in
            room.withMemoryRebound(to: UInt32.self, capacity: capacity) { first in
                let count = Int(tfont_script_extensions(scalar, first, Int32(capacity)))
                return count > 0 ? Array(UnsafeBufferPointer(start: first, count: min(count, capacity))) : nil
            }
        }
    }

    static let hanScripts: Set<UInt32> = [tag("Hani"), tag("Hira"), tag("Kana"), tag("Bopo")]
}

import CHarfBuzzShim
import TrellisCore

/// Measures texts in one font the way Chromium lays out `<span style="white-space: pre">`: bidi runs
/// (UAX #9), font fallback per grapheme cluster (UAX #29), runs by font and script shaped by HarfBuzz,
/// each bidi run's advance rounded up to 1/64 px. One measurer serves one request on one thread.
public final class TextMeasurer {
    public let font: TextFont
    let cache: MeasureCache?
    private let key: FontKey
    /// The sized HarfBuzz font of each face, made on first use.
    private var sized: [OpaquePointer?]
    /// What this measurer may still add to the shared cache: one request fills at most a share of it.
    private var storesLeft: Int
    private var bytesLeft: Int

    public init(font: TextFont, cache: MeasureCache? = nil) {
        self.font = font
        self.cache = cache
        key = font.key
        sized = Array(repeating: nil, count: font.faces.count)
        storesLeft = cache?.perRequestCapacity ?? 0
        bytesLeft = cache?.perRequestByteCapacity ?? 0
    }

    deinit {
        for font in sized { tfont_font_destroy(font) }
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
        // Rule: no grapheme cluster has more than maxClusterScalars scalars, checked before anything is shaped.
        var clusterStart = 0
        for i in 1...count where i == count || clusterStarts[i] != 0 {
            if i - clusterStart > Self.maxClusterScalars {
                return .failure(.clusterTooLong(offset: clusterStart, scalars: i - clusterStart))
            }
            clusterStart = i
        }
        // Rule: per grapheme cluster, the first face that shapes it with no .notdef.
        var faceOf = [Int](repeating: -1, count: count)
        var uncovered: [[UInt32]] = []
        var start = 0
        while start < count && uncovered.count < Self.maxUncoveredListed {
            var end = start + 1
            while end < count && clusterStarts[end] == 0 { end += 1 }
            switch chooseFace(scalars, start, end, &meter) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let face?): for i in start..<end { faceOf[i] = face }
            case .success(nil): uncovered.append(Array(scalars[start..<end]))
            }
            start = end
        }
        if !uncovered.isEmpty { return .failure(.uncovered(uncovered)) }
        // Rule: clusters of them alone take the face next to them.
        var previous = -1
        for i in 0..<count {
            if faceOf[i] >= 0 { previous = faceOf[i] } else if previous >= 0 { faceOf[i] = previous }
        }
        let first = faceOf.first(where: { $0 >= 0 }) ?? 0
        for i in 0..<count where faceOf[i] < 0 { faceOf[i] = first }
        // Rule: common and inherited characters join the script before them (at the
        // start, the first real script after them).
        let resolved = Self.resolveScripts(scripts)
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
                guard let font = sizedFont(faceOf[pieceStart]) else { return .failure(.outOfMemory) }
                var piece: Int64 = 0
                guard tfont_font_shape(
                    font, scalars, count, pieceStart, pieceEnd - pieceStart, Int32(levels[runStart] & 1),
                    resolved[pieceStart], &piece) == 0
                else { return .failure(.outOfMemory) }
                advance += piece
                pieceStart = pieceEnd
            }
            total += (advance + Self.roundingUnit - 1) / Self.roundingUnit * Self.roundingUnit
            runStart = runEnd
        }
        return .success(Double(total) / Double(Self.unitsPerPixel))
    }

    /// The face index for the cluster scalars[start..<end]: nil when no face covers it, -1 for a cluster
    /// of zero-width characters only (decided by its neighbours); `.outOfMemory`, or `.stopped` when the
    /// meter said stop (a step per scalar and face tried).
    private func chooseFace(_ scalars: [UInt32], _ start: Int, _ end: Int, _ meter: inout WorkMeter) -> Result<Int?, TextRefusal> {
        if scalars[start..<end].allSatisfy(TextCharacters.isZeroWidth) { return .success(-1) }
        for index in font.faces.indices where font.settings[index].allows(scalars[start..<end]) {
            guard meter.advance(end - start) else { return .failure(.stopped) }
            guard let sized = sizedFont(index) else { return .failure(.outOfMemory) }
            switch tfont_font_covers(sized, scalars, scalars.count, start, end - start) {
            case 1: return .success(index)
            case 0: continue
            default: return .failure(.outOfMemory)
            }
        }
        return .success(nil)
    }

    private func sizedFont(_ index: Int) -> OpaquePointer? {
        if let made = sized[index] { return made }
        let made = font.makeSizedFont(index)
        sized[index] = made
        return made
    }

    static let common: UInt32 = tag("Zyyy")
    static let inherited: UInt32 = tag("Zinh")
    static let unknown: UInt32 = tag("Zzzz")

    static func tag(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { bytes in bytes.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    static func resolveScripts(_ scripts: [UInt32]) -> [UInt32] {
        func isReal(_ script: UInt32) -> Bool { script != common && script != inherited && script != unknown }
        var resolved = scripts
        var current = scripts.first(where: isReal) ?? common
        for i in resolved.indices {
            if isReal(resolved[i]) { current = resolved[i] } else { resolved[i] = current }
        }
        return resolved
    }
}

import CHarfBuzzShim
import TrellisCore

/// The face each scalar of a text is shaped in, as Chromium's font fallback chooses it per grapheme cluster:
/// the one step measurement and paragraph shaping share.
enum ClusterFaces {
    /// Rule: no grapheme cluster has more than `TextMeasurer.maxClusterScalars` scalars, checked before anything
    /// is shaped (so shaping one costs at most a fixed amount). `clusterStarts[i]` is nonzero where a cluster starts.
    static func checkLengths(_ clusterStarts: [UInt8]) -> TextRefusal? {
        let count = clusterStarts.count
        // Each cluster's start, then the text's end, closes the cluster before it (over the bytes, without a check each).
        return clusterStarts.withUnsafeBufferPointer { starts in
            var clusterStart = 0
            var i = 1
            while i <= count {
                if i == count || starts[i] != 0 {
                    if i - clusterStart > TextMeasurer.maxClusterScalars {
                        return .clusterTooLong(offset: clusterStart, scalars: i - clusterStart)
                    }
                    clusterStart = i
                }
                i += 1
            }
            return nil
        }
    }

    /// Rule: per grapheme cluster, the first face that shapes it with no .notdef (among the faces whose
    /// unicode-range allows it); a cluster in emoji presentation (when `emojiPresentation` says so) takes the first
    /// color face that does, if any; a soft hyphen alone the first face (HarfBuzz hides it in any face); clusters of
    /// other zero-width characters alone take the face before them (at the start, the first face chosen). A face index per scalar; `.uncovered` with the first
    /// `TextMeasurer.maxUncoveredListed` clusters no face covers; `.stopped` when `meter` says stop (with
    /// `counting`, a step per scalar of a cluster and face tried); `.outOfMemory`.
    static func choose(
        _ scalars: [UInt32], clusterStarts: [UInt8], faces: SizedFaces, emojiPresentation: ((Int, Int) -> Bool)? = nil,
        meter: inout WorkMeter, counting: Bool
    ) -> Result<[Int], TextRefusal> {
        let count = scalars.count
        // Clusters of one scalar each, every one chosen for before (unmetered), are read off the faces' table.
        if !counting && emojiPresentation == nil, var known = faces.facesAlone(scalars, clusterStarts: clusterStarts) {
            fillNeighbours(&known)
            return .success(known)
        }
        var faceOf = [Int](repeating: -1, count: count)
        var uncovered: [[UInt32]] = []
        var start = 0
        while start < count && uncovered.count < TextMeasurer.maxUncoveredListed {
            var end = start + 1
            while end < count && clusterStarts[end] == 0 { end += 1 }
            let emoji = emojiPresentation?(start, end) ?? false
            // A cluster of one scalar chosen for before (unmetered: metered choices count every face tried); not a soft
            // hyphen, whose face depends on what follows it.
            let alone = !counting && !emoji && end == start + 1 && scalars[start] < SizedFaces.remembered && scalars[start] != 0xAD
            if alone {
                let known = faces.face(alone: scalars[start])
                if known != SizedFaces.unknown {
                    if known == SizedFaces.uncovered { uncovered.append([scalars[start]]) } else { faceOf[start] = Int(known) }
                    start = end
                    continue
                }
            }
            let chosen = face(scalars, start, end, faces, emoji: emoji, &meter, counting: counting)
            if alone, case .success(let face) = chosen {
                faces.remember(face.map { Int16($0) } ?? SizedFaces.uncovered, alone: scalars[start])
            }
            switch chosen {
            case .failure(let refusal): return .failure(refusal)
            case .success(let face?): for i in start..<end { faceOf[i] = face }
            case .success(nil): uncovered.append(Array(scalars[start..<end]))
            }
            start = end
        }
        if !uncovered.isEmpty { return .failure(.uncovered(uncovered)) }
        fillNeighbours(&faceOf)
        return .success(faceOf)
    }

    /// The clusters decided by their neighbours (-1) take the face before them, or at the start the first chosen.
    private static func fillNeighbours(_ faceOf: inout [Int]) {
        var previous = -1
        for i in faceOf.indices {
            if faceOf[i] >= 0 { previous = faceOf[i] } else if previous >= 0 { faceOf[i] = previous }
        }
        let first = faceOf.first(where: { $0 >= 0 }) ?? 0
        for i in faceOf.indices where faceOf[i] < 0 { faceOf[i] = first }
    }

    /// Whether a face covers a grapheme cluster of `scalar` alone (below `SizedFaces.remembered`, not a soft hyphen,
    /// not in emoji presentation), as `choose` finds and remembers it: nil when finding it failed (memory ran out).
    static func coversAlone(_ scalar: UInt32, faces: SizedFaces) -> Bool? {
        let known = faces.face(alone: scalar)
        if known != SizedFaces.unknown { return known != SizedFaces.uncovered }
        var unmetered = WorkMeter()
        guard case .success(let chosen) = face([scalar], 0, 1, faces, emoji: false, &unmetered, counting: false) else { return nil }
        faces.remember(chosen.map { Int16($0) } ?? SizedFaces.uncovered, alone: scalar)
        return chosen != nil
    }

    /// The face for the cluster scalars[start..<end]: nil when no face covers it, -1 for a cluster of zero-width
    /// characters or of the white-space controls a paragraph keeps (tab, line feed, carriage return: never shaped) only
    /// (decided by its neighbours).
    private static func face(
        _ scalars: [UInt32], _ start: Int, _ end: Int, _ faces: SizedFaces, emoji: Bool, _ meter: inout WorkMeter, counting: Bool
    ) -> Result<Int?, TextRefusal> {
        let cluster = scalars[start..<end]
        let font = faces.font
        // Rule (Blink's fallback: HarfBuzz never gives a soft hyphen .notdef, so it stays in the first face tried): a
        // soft hyphen alone takes the first face that may show it, splitting the run of a fallback face around it;
        // except before a Thai or Lao SARA AM, which HarfBuzz's Thai shaper decomposes and reorders into the cluster
        // before it, so that the soft hyphen falls back with that cluster.
        let beforeSaraAm = end < scalars.count && (scalars[end] == 0x0E33 || scalars[end] == 0x0EB3)
        if cluster.allSatisfy({ $0 == 0xAD }), !beforeSaraAm,
            let first = font.faces.indices.first(where: { font.settings[$0].allows(cluster) })
        {
            return .success(first)
        }
        if cluster.allSatisfy({ TextCharacters.isZeroWidth($0) || TextCharacters.isWhiteSpaceControl($0) }) { return .success(-1) }
        var firstCovering: Int?
        for index in font.faces.indices where font.settings[index].allows(cluster) {
            if firstCovering != nil && !font.faces[index].isColor { continue }
            if counting { guard meter.advance(end - start) else { return .failure(.stopped) } }
            guard let sized = faces.sized(index) else { return .failure(.outOfMemory) }
            switch tfont_font_covers(sized, scalars, scalars.count, start, end - start) {
            case 1:
                if !emoji || font.faces[index].isColor { return .success(index) }
                if firstCovering == nil { firstCovering = index }
            case 0: continue
            default: return .failure(.outOfMemory)
            }
        }
        return .success(firstCovering)
    }
}

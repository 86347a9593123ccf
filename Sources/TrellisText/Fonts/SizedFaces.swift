import CHarfBuzzShim

/// The HarfBuzz font of each face of a `TextFont` at its size, made on first use and freed with it: one per
/// measurer or shaper, so one request on one thread.
final class SizedFaces {
    let font: TextFont
    private var made: [OpaquePointer?]

    init(font: TextFont) {
        self.font = font
        // One more for the standard face (`TextFont.makeSizedFont`).
        made = Array(repeating: nil, count: font.faces.count + 1)
    }

    deinit {
        for font in made { tfont_font_destroy(font) }
    }

    /// Rule: a cluster of one scalar takes the same face wherever it is (the choice reads only the cluster): per
    /// scalar below `remembered`, the face chosen for it alone (`unknown` until chosen, `uncovered` when none).
    static let remembered: UInt32 = 0x3000
    static let unknown: Int16 = -2
    static let uncovered: Int16 = -3
    private var single: [Int16] = []

    /// The face chosen for a cluster of `scalar` alone (< `remembered`), `unknown` until `remember`ed.
    func face(alone scalar: UInt32) -> Int16 { single.isEmpty ? Self.unknown : single[Int(scalar)] }

    func remember(_ face: Int16, alone scalar: UInt32) {
        if single.isEmpty { single = [Int16](repeating: Self.unknown, count: Int(Self.remembered)) }
        single[Int(scalar)] = face
    }

    /// The face of each scalar of a text whose every grapheme cluster is one scalar whose face alone is known (no soft
    /// hyphen: its face depends on what follows it), -1 for the zero-width characters and controls (decided by their
    /// neighbours), as choosing cluster by cluster would find them; nil when some cluster is not known so.
    func facesAlone(_ scalars: [UInt32], clusterStarts: [UInt8]) -> [Int]? {
        guard !single.isEmpty, clusterStarts.count == scalars.count else { return nil }
        var faceOf = [Int](repeating: -1, count: scalars.count)
        let known = single.withUnsafeBufferPointer { table in
            scalars.withUnsafeBufferPointer { scalars in
                clusterStarts.withUnsafeBufferPointer { starts in
                    faceOf.withUnsafeMutableBufferPointer { faceOf in
                        for i in 0..<scalars.count {
                            let scalar = scalars[i]
                            guard starts[i] != 0, scalar < Self.remembered, scalar != 0xAD else { return false }
                            let face = table[Int(scalar)]
                            guard face != Self.unknown, face != Self.uncovered else { return false }
                            faceOf[i] = Int(face)
                        }
                        return true
                    }
                }
            }
        }
        return known ? faceOf : nil
    }

    /// Face `index` at the size; nil when memory ran out.
    func sized(_ index: Int) -> OpaquePointer? {
        if let font = made[index] { return font }
        let font = font.makeSizedFont(index)
        made[index] = font
        return font
    }
}

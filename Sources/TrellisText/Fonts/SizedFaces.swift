import CHarfBuzzShim

/// The HarfBuzz font of each face of a `TextFont` at its size, made on first use and freed with it: one per
/// measurer or shaper, so one request on one thread.
final class SizedFaces {
    let font: TextFont
    private var made: [OpaquePointer?]

    init(font: TextFont) {
        self.font = font
        made = Array(repeating: nil, count: font.faces.count)
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

    /// Face `index` at the size; nil when memory ran out.
    func sized(_ index: Int) -> OpaquePointer? {
        if let font = made[index] { return font }
        let font = font.makeSizedFont(index)
        made[index] = font
        return font
    }
}

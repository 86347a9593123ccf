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

    /// Face `index` at the size; nil when memory ran out.
    func sized(_ index: Int) -> OpaquePointer? {
        if let font = made[index] { return font }
        let font = font.makeSizedFont(index)
        made[index] = font
        return font
    }
}

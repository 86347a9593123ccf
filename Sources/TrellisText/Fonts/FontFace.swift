import CHarfBuzzShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One face of a font file, as HarfBuzz reads it: immutable, shared by every thread.
public final class FontFace: @unchecked Sendable {
    let face: OpaquePointer
    /// The face's identity in caches' keys (`FontKey`), never reused in the process: a key need not hold the face.
    let serial: UInt64
    private static let serials = Atomic<UInt64>(0)
    /// The typographic family name (name ID 16, else ID 1).
    public let family: String
    /// OS/2 usWeightClass.
    public let weight: Int
    /// OS/2 italic or oblique bit.
    public let isItalic: Bool
    /// OS/2 usWidthClass (1–9, 5 is normal).
    public let widthClass: Int
    public let unitsPerEm: Int
    /// Rule for `height`: ascender, descender (positive below the baseline) and line gap in font units,
    /// from hhea, or OS/2's typographic metrics when USE_TYPO_METRICS is set.
    public let ascender: Int
    public let descender: Int
    public let lineGap: Int
    /// The face has color glyphs (CBDT, sbix or COLR): an emoji face.
    public let isColor: Bool
    /// The variation axes (fvar), in the font's order; empty for a face that does not vary.
    public let axes: [FontAxis]
    /// The coordinates the face is fixed at, when it is one named instance of an installed variable font
    /// (`installedFaces`): HarfBuzz shapes it with these before any other variation; empty: the font's defaults.
    public let instance: [FontSetting]

    /// The number of faces in a font file's bytes (a collection has several); 0 when it is not a font.
    public static func faceCount(in data: [UInt8]) -> Int {
        Int(data.withUnsafeBufferPointer { tfont_face_count($0.baseAddress, $0.count) })
    }

    /// Face `index` of a font file's bytes (copied); nil when it is not a usable face or names no family.
    public convenience init?(data: [UInt8], index: Int = 0) {
        guard index >= 0, index < Int(UInt32.max),
            let face = data.withUnsafeBufferPointer({ tfont_face_create($0.baseAddress, $0.count, UInt32(index)) })
        else { return nil }
        self.init(face: face)
    }

    /// Face `index` of a mapped font file, sharing its pages; nil when it is not a usable face or names no family.
    public convenience init?(file: FontFile, index: Int) {
        guard index >= 0, index < Int(UInt32.max), let face = tfont_face_create_from_blob(file.blob, UInt32(index)) else {
            return nil
        }
        self.init(face: face)
    }

    /// Rule (Chromium on Linux, which asks fontconfig for an installed font): an installed variable font is its named
    /// instances, each a face of its own fixed at the instance's coordinates, matched as static faces are (at
    /// `font-weight: 700` Inter's variable font is its Bold instance, not its default); a font without named instances
    /// is its default instance. Face `index` of `file`; empty when it is not a usable face.
    public static func installedFaces(file: FontFile, index: Int) -> [FontFace] {
        guard let face = FontFace(file: file, index: index) else { return [] }
        guard !face.axes.isEmpty else { return [face] }
        let instances = face.namedInstances().filter { $0.coordinates.count == face.axes.count }
        guard !instances.isEmpty else { return [face] }
        return instances.compactMap { instance in
            guard index >= 0, index < Int(UInt32.max), let made = tfont_face_create_from_blob(file.blob, UInt32(index)) else {
                return nil
            }
            return FontFace(face: made, instance: instance)
        }
    }

    /// Takes over a face made by the shim; at a named instance, the instance's `wght` is its weight, it is italic when
    /// its `slnt` is negative, its `ital` 1 or its name says Italic or Oblique (as fontconfig names an instance's
    /// style), and its `wdth` gives its width class (the nearest of usWidthClass's percentages).
    private init?(face: OpaquePointer, instance named: NamedInstance? = nil) {
        var name = [CChar](repeating: 0, count: 256)
        let needed = tfont_face_family(face, &name, name.count)
        if needed >= name.count {
            name = [CChar](repeating: 0, count: needed + 1)
            _ = tfont_face_family(face, &name, name.count)
        }
        let family = String(decoding: name.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard needed > 0, !family.isEmpty else {
            tfont_face_destroy(face)
            return nil
        }
        var facts = tfont_face_facts()
        tfont_face_get_facts(face, &facts)
        self.face = face
        self.family = family
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
        unitsPerEm = Int(facts.units_per_em)
        ascender = Int(facts.ascender)
        descender = -Int(facts.descender)
        lineGap = Int(facts.line_gap)
        isColor = facts.color != 0
        let axes = Self.readAxes(face)
        self.axes = axes
        var weight = Int(facts.weight), isItalic = facts.italic != 0, widthClass = Int(facts.width_class)
        var instance: [FontSetting] = []
        if let named, named.coordinates.count == axes.count {
            instance = zip(axes, named.coordinates).map { FontSetting($0.tag, $1) }
            func coordinate(_ tag: FontTag) -> Double? { instance.first { $0.tag == tag }?.value }
            if let wght = coordinate(.weight), wght.isFinite { weight = Int(min(max(wght.rounded(), 1), 1000)) }
            let name = FontFamilyList.asciiLowercased(named.name)
            if (coordinate(.slant) ?? 0) < 0 || (coordinate(.italic) ?? 0) >= 1 || name.contains("italic") || name.contains("oblique") {
                isItalic = true
            }
            if let wdth = coordinate(.width), wdth.isFinite {
                let percentages: [Double] = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
                widthClass = (percentages.indices.min { abs(percentages[$0] - wdth) < abs(percentages[$1] - wdth) } ?? 4) + 1
            }
        }
        self.weight = weight
        self.isItalic = isItalic
        self.widthClass = widthClass
        self.instance = instance
    }

    private static func readAxes(_ face: OpaquePointer) -> [FontAxis] {
        let count = Int(tfont_face_axes(face, nil, 0))
        guard count > 0 else { return [] }
        var read = [tfont_axis](repeating: tfont_axis(), count: count)
        _ = tfont_face_axes(face, &read, UInt32(count))
        return read.map { axis in
            FontAxis(
                tag: FontTag(axis.tag), minimum: Double(axis.minimum), defaultValue: Double(axis.default_value),
                maximum: Double(axis.maximum), isHidden: axis.hidden != 0)
        }
    }

    /// The named instances (fvar), in the font's order: each one's subfamily name and its coordinate on every axis.
    public func namedInstances() -> [NamedInstance] {
        let count = Int(tfont_face_instance_count(face))
        var instances: [NamedInstance] = []
        instances.reserveCapacity(count)
        for index in 0..<count {
            var name = [CChar](repeating: 0, count: 64)
            let needed = tfont_face_instance_name(face, UInt32(index), &name, name.count)
            if needed >= name.count {
                name = [CChar](repeating: 0, count: needed + 1)
                _ = tfont_face_instance_name(face, UInt32(index), &name, name.count)
            }
            var coordinates = [Float](repeating: 0, count: axes.count)
            _ = tfont_face_instance_coordinates(face, UInt32(index), &coordinates, UInt32(axes.count))
            instances.append(
                NamedInstance(
                    name: String(decoding: name.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    coordinates: coordinates.map(Double.init)))
        }
        return instances
    }

    /// Rule: OS/2 usWidthClass as a `font-stretch` percentage (CSS Fonts 4's keywords: 1 is 50%, 5 is 100%, 9 is 200%).
    public var stretch: Double {
        let percentages: [Double] = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
        return percentages[min(max(widthClass, 1), 9) - 1]
    }

    deinit {
        tfont_face_destroy(face)
    }

    /// Rule for `height`: ascent, descent and line gap at `size`, each scaled and rounded half up on its own, in
    /// Skia's float arithmetic as Chromium computes them: units × (size / units per em); past 256 px, Skia measures
    /// at 64 px and scales by size / 64 (its canonical strike).
    public func lineMetrics(size: Double) -> LineMetrics {
        let size = Float(size), upem = Float(unitsPerEm)
        func scaled(_ units: Int) -> Float {
            size > 256 ? Float(units) * (64 / upem) * (size / 64) : Float(units) * (size / upem)
        }
        func rounded(_ units: Int) -> Double { Double((scaled(units) + 0.5).rounded(.down)) }
        return LineMetrics(ascent: rounded(ascender), descent: rounded(descender), lineGap: rounded(lineGap))
    }
}

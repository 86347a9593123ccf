import Synchronization

/// The faces Trellis measures with, grouped by family, and CSS Fonts 4 matching among them.
public final class FontCollection: Sendable {
    /// Every face loaded, in load order.
    public let faces: [FontFace]
    /// Rule: per family (by its ASCII-lowercased name), the faces of the width
    /// class a normal-width request selects (normal, else the nearest narrower, else the nearest wider).
    let families: [String: [FontFace]]
    /// The family names as the faces spell them, sorted.
    public let familyNames: [String]
    /// The family each generic name means.
    public let generics: [FontFamilyList.GenericFamily: String]
    /// Family lists already resolved, by the request's spelling, weight and style (bounded: cleared when
    /// full; Swift's per-process seeded hashing).
    private let resolved = Mutex<[ResolvedKey: Result<[FontFace], FamilyListProblem>]>([:])
    static let resolvedCapacity = 1024

    struct ResolvedKey: Hashable {
        var family: String
        var weight: Int
        var style: FontStyle
    }

    /// `generics` maps generic names to families (by default the DejaVu ones, `GenericFamily.defaultFamily`).
    public init(faces: [FontFace], generics: [FontFamilyList.GenericFamily: String] = [:]) {
        self.faces = faces
        self.generics = Dictionary(uniqueKeysWithValues: FontFamilyList.GenericFamily.allCases.map { ($0, generics[$0] ?? $0.defaultFamily) })
        var grouped: [String: [FontFace]] = [:]
        var names: [String: String] = [:]
        for face in faces {
            let key = FontFamilyList.asciiLowercased(face.family)
            grouped[key, default: []].append(face)
            if names[key] == nil { names[key] = face.family }
        }
        families = grouped.mapValues { members in
            let widths = Set(members.map(\.widthClass))
            let chosen = widths.contains(5) ? 5 : (widths.filter { $0 < 5 }.max() ?? widths.filter { $0 > 5 }.min() ?? 5)
            return members.filter { $0.widthClass == chosen }
        }
        familyNames = names.values.sorted()
    }

    public var isEmpty: Bool { faces.isEmpty }

    /// The faces a request can select, sorted by family, weight, then style (normal before italic);
    /// faces that only differ in width from these are never selected, so they are not listed, and of faces
    /// alike in family, weight and style only the first loaded (the one matching picks) is.
    public var listing: [FontFace] {
        var seen = Set<String>()
        let selectable = families.values.flatMap { $0 }.filter { seen.insert("\($0.family)\u{0}\($0.weight)\u{0}\($0.isItalic)").inserted }
        return selectable.sorted { a, b in
            if a.family != b.family { return a.family < b.family }
            if a.weight != b.weight { return a.weight < b.weight }
            return !a.isItalic && b.isItalic
        }
    }

    /// The face of `family` (any ASCII case) that CSS Fonts 4 matching picks for the weight and style;
    /// nil when no face has that family name. No synthetic bold or italic: the nearest real face wins.
    public func match(family: String, weight: Int, style: FontStyle) -> FontFace? {
        guard let members = families[FontFamilyList.asciiLowercased(family)], !members.isEmpty else { return nil }
        // font-style: italic (or oblique) faces first when asked for, else normal ones; the others when there is none.
        let italic = members.filter(\.isItalic)
        let upright = members.filter { !$0.isItalic }
        let styled = style.wantsItalic ? (italic.isEmpty ? upright : italic) : (upright.isEmpty ? italic : upright)
        return Self.nearestWeight(weight, among: styled)
    }

    /// CSS Fonts 4 font-weight matching: 400–500 looks up to 500, then down, then above 500; below 400
    /// looks down, then up; above 500 looks up, then down.
    static func nearestWeight(_ desired: Int, among faces: [FontFace]) -> FontFace? {
        if let exact = faces.first(where: { $0.weight == desired }) { return exact }
        let below = faces.filter { $0.weight < desired }.max { $0.weight < $1.weight }
        let above = faces.filter { $0.weight > desired }.min { $0.weight < $1.weight }
        if desired >= 400 && desired <= 500 {
            if let near = faces.filter({ $0.weight > desired && $0.weight <= 500 }).min(by: { $0.weight < $1.weight }) {
                return near
            }
            return below ?? above
        }
        return desired < 400 ? (below ?? above) : (above ?? below)
    }

    /// Rule: the family a generic name means here.
    public func family(of generic: FontFamilyList.GenericFamily) -> String { generics[generic] ?? generic.defaultFamily }

    /// Rule (Blink's font fallback list): after the families a style lists, a character is looked up in the standard
    /// font, Times New Roman, which fontconfig gives as its metric twin Liberation Serif (the serif family here when
    /// that is not loaded). Trellis takes that fallback only for the text it generates itself, a hyphen and an
    /// ellipsis: a character of the text that no listed family has stays a refusal.
    public static let standardFamily = "Liberation Serif"

    /// The standard font's face for the weight and style; nil when neither it nor the serif family is loaded.
    public func standardFace(weight: Int, style: FontStyle) -> FontFace? {
        match(family: Self.standardFamily, weight: weight, style: style)
            ?? match(family: family(of: .serif), weight: weight, style: style)
    }

    /// The faces for a parsed family list, in order: one per entry (generic names resolved), or the
    /// entries naming no family here.
    public func resolve(
        _ entries: [FontFamilyList.Entry], weight: Int, style: FontStyle
    ) -> Result<[FontFace], UnknownFamilies> {
        var matched: [FontFace] = []
        var unknown: [String] = []
        for entry in entries {
            let name: String
            switch entry {
            case .name(let given): name = given
            case .generic(let generic): name = family(of: generic)
            }
            if let face = match(family: name, weight: weight, style: style) {
                if !matched.contains(where: { $0 === face }) { matched.append(face) }
            } else {
                unknown.append(name)
            }
        }
        return unknown.isEmpty ? .success(matched) : .failure(UnknownFamilies(names: unknown))
    }
}

extension FontCollection {
    /// The faces for a CSS font-family list as a request spells it, remembered for the next request.
    public func resolve(family: String, weight: Int, style: FontStyle) -> Result<[FontFace], FamilyListProblem> {
        let key = ResolvedKey(family: family, weight: weight, style: style)
        if let known = resolved.withLock({ $0[key] }) { return known }
        let result: Result<[FontFace], FamilyListProblem>
        switch FontFamilyList.parse(family) {
        case .failure(let mistake): result = .failure(.mistake(mistake))
        case .success(let entries): result = resolve(entries, weight: weight, style: style).mapError { .unknown($0) }
        }
        // Only lists that resolve are kept: a misspelt one is answered with a 422 and need not be fast.
        guard case .success = result else { return result }
        resolved.withLock { table in
            if table.count >= Self.resolvedCapacity { table.removeAll() }
            table[key] = result
        }
        return result
    }
}

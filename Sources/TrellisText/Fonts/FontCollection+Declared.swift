extension FontCollection {
    /// Rule: a family list's faces with declared `@font-face` rules. A family a rule declares shadows an installed
    /// family of the same name (ASCII case aside); among its rules CSS Fonts 4 matching picks the best weight, width
    /// and slope ranges, and every rule with exactly those ranges joins a segmented face, tried last declared first
    /// (each shows only its unicode-range). Other names are installed families, matched as before. The primary face
    /// is the first family's face whose range holds U+0020 (else its first face).
    public func resolve(
        _ entries: [FontFamilyList.Entry], properties: FontProperties, declared: [FontFaceRule]
    ) -> Result<ResolvedFaces, UnknownFamilies> {
        var resolved = ResolvedFaces()
        var unknown: [String] = []
        for (position, entry) in entries.enumerated() {
            let start = resolved.faces.count
            switch entry {
            case .name(let name) where declared.contains(where: { FontFamilyList.asciiLowercased($0.family) == FontFamilyList.asciiLowercased(name) }):
                let key = FontFamilyList.asciiLowercased(name)
                let rules = declared.filter { FontFamilyList.asciiLowercased($0.family) == key }
                for rule in Self.segment(of: rules, for: properties.selection).reversed() {
                    resolved.append(rule.face, Self.settings(for: rule, properties))
                }
            default:
                let name: String
                switch entry {
                case .name(let given): name = given
                case .generic(let generic): name = family(of: generic)
                }
                guard let face = match(family: name, weight: Int(properties.selection.weight), style: properties.style) else {
                    unknown.append(name)
                    continue
                }
                resolved.append(face, FaceSettings(variations: properties.variations, features: properties.features))
            }
            if position == 0, resolved.faces.count > start {
                resolved.primary = (start..<resolved.faces.count).first { resolved.settings[$0].unicodeRange?.contains(0x20) ?? true } ?? start
            }
        }
        return unknown.isEmpty ? .success(resolved) : .failure(UnknownFamilies(names: unknown))
    }

    /// The rules of one family that share the best-matching ranges, in declaration order.
    static func segment(of rules: [FontFaceRule], for request: FontSelection) -> [FontFaceRule] {
        let algorithm = FontSelectionAlgorithm(request: request, candidates: rules.map(\.capabilities))
        guard var best = rules.first?.capabilities else { return [] }
        for rule in rules.dropFirst() where algorithm.isBetter(rule.capabilities, than: best) { best = rule.capabilities }
        return rules.filter { $0.capabilities.sameRanges(as: best) }
    }

    /// Rule (Chromium's, for a variable face): `wght`, `wdth` and `slnt` from the request's weight, width and slope,
    /// clamped to the rule's declared ranges (or, for a descriptor left out, to the font's own axis); then the rule's
    /// `font-variation-settings`, then the element's; then `opsz` from the size (with `font-optical-sizing: auto`,
    /// unless a setting gives opsz) or the axis default (`none`). Features: the rule's, then the element's.
    static func settings(for rule: FontFaceRule, _ properties: FontProperties) -> FaceSettings {
        let request = properties.selection
        let capabilities = rule.capabilities
        let axes = rule.face.axes
        var variations: [FontSetting] = []
        if !axes.isEmpty {
            func axisRange(_ tag: FontTag) -> SelectionRange? {
                axes.first { $0.tag == tag }.map { SelectionRange($0.minimum, $0.maximum) }
            }
            func coordinate(_ declared: SelectionRange, _ tag: FontTag, _ wanted: Double) -> Double {
                if declared.isAuto, let axis = axisRange(tag) { return axis.clamp(wanted) }
                return declared.clamp(wanted)
            }
            variations.append(FontSetting(.weight, coordinate(capabilities.weight, .weight, request.weight)))
            variations.append(FontSetting(.width, coordinate(capabilities.width, .width, request.width)))
            let slant = capabilities.slope.isAuto && axisRange(.slant) != nil
                ? coordinate(capabilities.slope, .slant, -request.slope) : -capabilities.slope.clamp(request.slope)
            variations.append(FontSetting(.slant, slant))
            variations += rule.variations + properties.variations
            if !variations.contains(where: { $0.tag == .opticalSize }) {
                if properties.opticalSizing {
                    variations.append(FontSetting(.opticalSize, properties.size))
                } else if let opsz = axes.first(where: { $0.tag == .opticalSize }) {
                    variations.append(FontSetting(.opticalSize, opsz.defaultValue))
                }
            }
        }
        return FaceSettings(variations: variations, features: rule.features + properties.features, unicodeRange: rule.unicodeRange)
    }
}

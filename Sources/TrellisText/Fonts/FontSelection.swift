/// A font's weight, width (font-stretch, in percent) and slope (in degrees, CSS's direction: 14 for italic and
/// `oblique`), each in Blink's FontSelectionValue resolution: a multiple of 1/4, truncated toward zero.
public struct FontSelection: Hashable, Sendable {
    public var weight: Double
    public var width: Double
    public var slope: Double

    public init(weight: Double = 400, width: Double = 100, slope: Double = 0) {
        self.weight = Self.quantized(weight)
        self.width = Self.quantized(width)
        self.slope = Self.quantized(slope)
    }

    /// Rule: Blink's FontSelectionValue keeps values as 16-bit multiples of 1/4 (x × 4 truncated).
    public static func quantized(_ value: Double) -> Double {
        (max(-8192, min(8191.75, value)) * 4).rounded(.towardZero) / 4
    }

    /// Rule: `font-style: italic` and plain `oblique` are a slope of 14 degrees.
    public static let italicSlope = 14.0
}

/// A closed range of one selection value, as an @font-face descriptor declares it; `isAuto` when the descriptor
/// was left out (Chromium then varies a variable face along the font's own axis range).
public struct SelectionRange: Hashable, Sendable {
    public var lower: Double
    public var upper: Double
    public var isAuto: Bool

    /// The range between two values, in either order (CSS swaps a decreasing range).
    public init(_ a: Double, _ b: Double, isAuto: Bool = false) {
        lower = FontSelection.quantized(min(a, b))
        upper = FontSelection.quantized(max(a, b))
        self.isAuto = isAuto
    }

    public init(_ value: Double) { self.init(value, value) }

    func includes(_ value: Double) -> Bool { lower <= value && value <= upper }
    func clamp(_ value: Double) -> Double { min(max(value, lower), upper) }
}

/// The weights, widths and slopes an @font-face rule declares its face for (Blink's FontSelectionCapabilities);
/// a descriptor left out is the normal value (400, 100%, 0°), marked auto.
public struct SelectionCapabilities: Hashable, Sendable {
    public var weight: SelectionRange
    public var width: SelectionRange
    public var slope: SelectionRange

    public init(weight: SelectionRange? = nil, width: SelectionRange? = nil, slope: SelectionRange? = nil) {
        self.weight = weight ?? SelectionRange(400, 400, isAuto: true)
        self.width = width ?? SelectionRange(100, 100, isAuto: true)
        self.slope = slope ?? SelectionRange(0, 0, isAuto: true)
    }

    /// Faces with equal ranges form one segmented face (their auto marks aside, as Blink compares them).
    func sameRanges(as other: SelectionCapabilities) -> Bool {
        weight.lower == other.weight.lower && weight.upper == other.weight.upper && width.lower == other.width.lower
            && width.upper == other.width.upper && slope.lower == other.slope.lower && slope.upper == other.slope.upper
    }
}

/// CSS Fonts 4 §5.2's font matching over declared faces, as Blink's FontSelectionAlgorithm does it: the best face
/// has the least stretch distance, then style (slope) distance, then weight distance; distances are measured
/// against the union of every candidate's ranges (the bounds).
struct FontSelectionAlgorithm {
    let request: FontSelection
    let bounds: SelectionCapabilities

    init(request: FontSelection, candidates: [SelectionCapabilities]) {
        self.request = request
        var bounds = candidates.first ?? SelectionCapabilities()
        for candidate in candidates.dropFirst() {
            bounds.weight = SelectionRange(min(bounds.weight.lower, candidate.weight.lower), max(bounds.weight.upper, candidate.weight.upper))
            bounds.width = SelectionRange(min(bounds.width.lower, candidate.width.lower), max(bounds.width.upper, candidate.width.upper))
            bounds.slope = SelectionRange(min(bounds.slope.lower, candidate.slope.lower), max(bounds.slope.upper, candidate.slope.upper))
        }
        self.bounds = bounds
    }

    /// Rule (font-stretch): a range holding the request is at 0; above 100% wider faces come first, then narrower
    /// ones; at or below 100% narrower ones first.
    func stretchDistance(_ width: SelectionRange) -> Double {
        let wanted = request.width
        if width.includes(wanted) { return 0 }
        if wanted > 100 {
            if width.lower > wanted { return width.lower - wanted }
            return max(wanted, bounds.width.upper) - width.upper
        }
        if width.upper < wanted { return wanted - width.upper }
        return width.lower - min(wanted, bounds.width.lower)
    }

    /// Rule (font-style): at or past the italic threshold (14°) steeper faces first, then less steep; from 0
    /// to it, less steep non-negative slopes first, then steeper, then negative; the mirror below 0.
    func styleDistance(_ slope: SelectionRange) -> Double {
        let wanted = request.slope
        let threshold = FontSelection.italicSlope
        if slope.includes(wanted) { return 0 }
        if wanted >= threshold {
            if slope.lower > wanted { return slope.lower - wanted }
            return max(wanted, bounds.slope.upper) - slope.upper
        }
        if wanted >= 0 {
            if slope.upper >= 0 && slope.upper < wanted { return wanted - slope.upper }
            if slope.lower > wanted { return slope.lower }
            return max(wanted, bounds.slope.upper) - slope.upper
        }
        if wanted > -threshold {
            if slope.lower > wanted && slope.lower <= 0 { return slope.lower - wanted }
            if slope.upper < wanted { return -slope.upper }
            return slope.lower - min(wanted, bounds.slope.lower)
        }
        if slope.upper < wanted { return wanted - slope.upper }
        return slope.lower - min(wanted, bounds.slope.lower)
    }

    /// Rule (font-weight): 400–500 looks up to 500, then down, then above 500; below 400 down then up;
    /// above 500 up then down.
    func weightDistance(_ weight: SelectionRange) -> Double {
        let wanted = request.weight
        if weight.includes(wanted) { return 0 }
        if wanted >= 400 && wanted <= 500 {
            if weight.lower > wanted && weight.lower <= 500 { return weight.lower - wanted }
            if weight.upper < wanted { return 500 - weight.upper }
            return weight.lower - min(wanted, bounds.weight.lower)
        }
        if wanted < 400 {
            if weight.upper < wanted { return wanted - weight.upper }
            return weight.lower - min(wanted, bounds.weight.lower)
        }
        if weight.lower > wanted { return weight.lower - wanted }
        return max(wanted, bounds.weight.upper) - weight.upper
    }

    /// Whether `a` matches the request strictly better than `b`.
    func isBetter(_ a: SelectionCapabilities, than b: SelectionCapabilities) -> Bool {
        let stretch = (stretchDistance(a.width), stretchDistance(b.width))
        if stretch.0 != stretch.1 { return stretch.0 < stretch.1 }
        let style = (styleDistance(a.slope), styleDistance(b.slope))
        if style.0 != style.1 { return style.0 < style.1 }
        return weightDistance(a.weight) < weightDistance(b.weight)
    }
}

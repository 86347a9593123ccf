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

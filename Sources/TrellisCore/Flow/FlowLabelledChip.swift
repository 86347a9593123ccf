extension FlowLayout {
    /// Rule: the chip's size depends on the count it shows ("+{n}"). Starting from the
    /// label for 0, lay out, and while the hidden count differs from the label's, relabel with it; when
    /// the counts cycle (or after `maxRounds`), the largest count of the cycle labels the chip.
    public static func compute(
        _ request: FlowInput, chipForCount chip: (Int) -> Size, maxRounds: Int = 32
    ) -> FlowOutput {
        guard request.maxRows != nil else { return compute(request) }
        var request = request
        var tried: [Int] = []
        var count = 0
        while true {
            request.overflowIndicator = chip(count)
            let result = compute(request)
            let hidden = result.hiddenCount
            if hidden == count { return result }
            tried.append(count)
            if let first = tried.firstIndex(of: hidden) ?? (tried.count >= maxRounds ? tried.startIndex : nil) {
                let largest = max(tried[first...].max() ?? hidden, hidden)
                request.overflowIndicator = chip(largest)
                return compute(request)
            }
            count = hidden
        }
    }
}

import TrellisTestSupport

/// Random flow requests in the shapes the browser fixtures use.
extension SplitMix64 {
    /// A multiple of 1/4 in low...high, so sums are exact.
    mutating func quarter(_ low: Double, _ high: Double) -> Double {
        Double(Int.random(in: Int(low * 4)...Int(high * 4), using: &self)) / 4
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A random request in the shapes the browser fixtures use.
    mutating func request(maxItems: Int, containerWidth: ClosedRange<Double> = 0...300) -> FlowRequestSample {
        let width = quarter(containerWidth.lowerBound, containerWidth.upperBound)
        let count = Int.random(in: 0...maxItems, using: &self)
        let breakRates: [Double] = [0, 0, 0.15, 0.4]
        let oversizedRates: [Double] = [0, 0.1, 0.3]
        let breakRate = breakRates.randomElement(using: &self) ?? 0
        let oversizedRate = oversizedRates.randomElement(using: &self) ?? 0
        let items = (0..<count).map { _ in
            (
                width: chance(oversizedRate) ? quarter(width, width + 80) : quarter(0, max(0, width / 2)),
                height: quarter(0, 30),
                breakBefore: chance(breakRate)
            )
        }
        return FlowRequestSample(
            containerWidth: width,
            items: items,
            horizontalSpacing: chance(0.5) ? quarter(0, 4) : 0,
            verticalSpacing: chance(0.5) ? quarter(0, 4) : 0,
            columnGap: chance(0.5) ? quarter(0, 8) : 0,
            rowGap: chance(0.5) ? quarter(0, 8) : 0
        )
    }
}

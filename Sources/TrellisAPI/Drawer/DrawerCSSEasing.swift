import TrellisCore

/// `css`: the duration and the `linear()` easing a web client writes into `transition`.
enum DrawerCSSEasing {
    static func duration(milliseconds: Double) -> String {
        fixed(milliseconds, decimals: 0) + "ms"
    }

    /// `css.easing`: `linear(p₀, p₁ t₁%, …, 1)`, progress with up to 6 decimals and percentages with up to 4.
    static func linear(_ stops: [DrawerEasingStop]) -> String {
        var text = "linear("
        for (i, stop) in stops.enumerated() {
            if i > 0 { text += ", " }
            text += fixed(stop.progress, decimals: DrawerLinearEasing.progressDecimals)
            if i > 0 && i < stops.count - 1 {
                text += " " + fixed(stop.timeFraction * 100, decimals: 4) + "%"
            }
        }
        return text + ")"
    }

    /// A decimal rounded to `decimals` places without trailing zeros; past 10¹⁵ scaled, the shortest round-trip form.
    static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = (0..<decimals).reduce(1.0) { product, _ in product * 10 }
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 1e15 else { return value.description }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        var digits = String(units.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        var whole = String(digits.dropLast(decimals))
        var fraction = String(digits.suffix(decimals))
        while fraction.last == "0" { fraction.removeLast() }
        if !fraction.isEmpty { whole += "." + fraction }
        return (units < 0 ? "-" : "") + whole
    }
}

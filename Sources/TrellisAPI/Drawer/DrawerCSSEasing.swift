import TrellisCore

/// `css`: the duration and the `linear()` easing a web client writes into `transition`.
enum DrawerCSSEasing {
    static func duration(milliseconds: Double) -> String {
        fixed(milliseconds, decimals: 0) + "ms"
    }

    /// `css.easing`: `linear(p₀, p₁ t₁%, …, 1)`, progress with up to 6 decimals and percentages with up to 4.
    static func linear(_ stops: [DrawerEasingStop]) -> String {
        String(decoding: linearBytes(stops), as: UTF8.self)
    }

    /// The same text as ASCII bytes, written in one buffer (a stop costs no String of its own).
    static func linearBytes(_ stops: [DrawerEasingStop]) -> [UInt8] {
        var text: [UInt8] = []
        // A stop is at most ", " + 9 + " " + 8 + "%" bytes in practice: one allocation.
        text.reserveCapacity(8 + stops.count * 22)
        text.append(contentsOf: "linear(".utf8)
        for (i, stop) in stops.enumerated() {
            if i > 0 { text.append(contentsOf: ", ".utf8) }
            appendFixed(stop.progress, decimals: DrawerLinearEasing.progressDecimals, to: &text)
            if i > 0 && i < stops.count - 1 {
                text.append(UInt8(ascii: " "))
                appendFixed(stop.timeFraction * 100, decimals: 4, to: &text)
                text.append(UInt8(ascii: "%"))
            }
        }
        text.append(UInt8(ascii: ")"))
        return text
    }

    /// A decimal rounded to `decimals` places without trailing zeros; past 10¹⁵ scaled, the shortest round-trip form.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var text: [UInt8] = []
        appendFixed(value, decimals: decimals, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    static func appendFixed(_ value: Double, decimals: Int, to text: inout [UInt8]) {
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 1e15 else {
            text.append(contentsOf: value.description.utf8)
            return
        }
        let units = Int64(scaled)
        if units == 0 {
            text.append(UInt8(ascii: "0"))
            return
        }
        if units < 0 { text.append(UInt8(ascii: "-")) }
        appendDigits(units.magnitude / scale, width: 1, to: &text)
        // Rule: no trailing zeros in the fraction, and no point without one.
        var fraction = units.magnitude % scale, places = decimals
        guard fraction != 0 else { return }
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        text.append(UInt8(ascii: "."))
        appendDigits(fraction, width: places, to: &text)
    }

    /// `value` in decimal, padded with leading zeros to at least `width` digits.
    private static func appendDigits(_ value: UInt64, width: Int, to text: inout [UInt8]) {
        var count = 1, rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        count = max(count, width)
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var i = text.count - 1, v = value
        while v > 0 {
            text[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
    }
}

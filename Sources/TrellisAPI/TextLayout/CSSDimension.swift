import TrellisJSON

/// A CSS dimension as the paragraph properties take it in a string: a CSS number and its unit ("13.5px", "-0.05em",
/// "150%", "1.5" without one), parsed as CSS Syntax 3 does (sign, digits, a fraction, an exponent; units ASCII
/// case-insensitive). No white space inside, as in a single CSS token.
struct CSSDimension: Equatable {
    var value: Double
    /// The unit in lower case ("" for a bare number).
    var unit: String

    init(value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }

    /// Rule: a CSS <number-token> followed by a unit (letters or %), or nil.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
        var count = digits()
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            let fraction = digits()
            guard fraction > 0 else { return nil }
            count += fraction
        }
        guard count > 0 else { return nil }
        if i + 1 < bytes.count, bytes[i] | 0x20 == 0x65 {
            // An exponent only when digits follow (else "e" would start a unit, as "em" does).
            let mark = i
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            if digits() == 0 { i = mark }
        }
        guard let number = Double(String(decoding: bytes[..<i], as: UTF8.self)), number.isFinite else { return nil }
        let unit = bytes[i...]
        guard unit.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) || Array(unit) == [0x25] else { return nil }
        value = number
        self.unit = String(decoding: unit, as: UTF8.self).lowercased()
    }
}

extension JSONValue {
    /// A JSON number (in `numberUnit`), or a string holding a CSS dimension in one of `units`, within its unit's range;
    /// otherwise a problem that says what is accepted (`expected`).
    func cssDimension(
        _ problems: inout Problems, numberUnit: String, units: [(unit: String, range: NumberRange)], expected: String
    ) -> CSSDimension? {
        let dimension = double.map { CSSDimension(value: $0, unit: numberUnit) } ?? string.flatMap(CSSDimension.init)
        guard let dimension, let accepted = units.first(where: { $0.unit == dimension.unit }), accepted.range.contains(dimension.value)
        else {
            problems.add(at: self, "must be \(expected)")
            return nil
        }
        return dimension
    }
}

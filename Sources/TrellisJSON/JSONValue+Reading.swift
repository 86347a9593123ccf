/// Typed reading that records a problem, with its pointer, for every value of the wrong shape.
extension JSONValue {
    /// Records a problem unless this is an object.
    public func expectObject(_ problems: inout Problems) -> Bool {
        guard kind == .object else {
            problems.add(at: self, "must be an object")
            return false
        }
        return true
    }

    /// A finite number within `range`.
    public func number(_ problems: inout Problems, _ range: NumberRange = .any) -> Double? {
        guard let value = double else {
            problems.add(at: self, "must be a number")
            return nil
        }
        guard range.contains(value) else {
            problems.add(at: self, "must be \(range)")
            return nil
        }
        return value
    }

    /// An integer literal within min...max.
    public func integer(_ problems: inout Problems, min: Int = .min, max: Int = .max) -> Int? {
        guard let value = int64 else {
            problems.add(at: self, kind == .double || kind == .integer ? "must be an integer within \(min)...\(max)" : "must be an integer")
            return nil
        }
        guard value >= min && value <= max else {
            problems.add(at: self, max == .max ? "must be ≥ \(min)" : "must be within \(min)...\(max)")
            return nil
        }
        return Int(value)
    }

    public func boolean(_ problems: inout Problems) -> Bool? {
        guard let value = bool else {
            problems.add(at: self, "must be true or false")
            return nil
        }
        return value
    }

    public func text(_ problems: inout Problems) -> String? {
        guard let value = string else {
            problems.add(at: self, "must be a string")
            return nil
        }
        return value
    }

    /// An array of at most `maxCount` elements.
    public func array(_ problems: inout Problems, maxCount: Int = .max) -> JSONElements? {
        guard kind == .array else {
            problems.add(at: self, "must be an array")
            return nil
        }
        if maxCount != .max, count > maxCount {
            problems.add(at: self, "must have at most \(maxCount) elements")
            return nil
        }
        return elements
    }
}

/// The allowed values of a number, described the way problem details quote them.
public enum NumberRange: CustomStringConvertible, Sendable {
    case any
    case nonNegative
    case positive
    case closed(Double, Double)
    case exclusive(Double, Double)
    /// Above the first bound, up to and including the second.
    case openClosed(Double, Double)

    public func contains(_ x: Double) -> Bool {
        switch self {
        case .any: return x.isFinite
        case .nonNegative: return x.isFinite && x >= 0
        case .positive: return x.isFinite && x > 0
        case .closed(let a, let b): return x >= a && x <= b
        case .exclusive(let a, let b): return x > a && x < b
        case .openClosed(let a, let b): return x > a && x <= b
        }
    }

    public var description: String {
        switch self {
        case .any: return "a finite number"
        case .nonNegative: return "a finite number ≥ 0"
        case .positive: return "a finite number > 0"
        case .closed(let a, let b): return "a number within [\(Self.format(a)), \(Self.format(b))]"
        case .exclusive(let a, let b): return "a number within (\(Self.format(a)), \(Self.format(b)))"
        case .openClosed(let a, let b): return "a number within (\(Self.format(a)), \(Self.format(b))]"
        }
    }

    private static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : x.description
    }
}

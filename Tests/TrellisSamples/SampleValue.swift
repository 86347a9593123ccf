import TrellisJSON

/// A JSON value of a sample: what a samples file holds and what a recipe expands to. Objects keep their members'
/// order, and integers and fractions stay apart, as Python's json module keeps them (the seeds are written by it).
public enum SampleValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SampleValue])
    case object([Member])

    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: SampleValue

        public init(_ key: String, _ value: SampleValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object's member by name.
    public subscript(key: String) -> SampleValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value read from a parsed document (a samples file: trusted, so read recursively).
    init(_ value: JSONValue) throws(SampleError) {
        switch value.kind {
        case .null: self = .null
        case .bool: self = .bool(value.bool ?? false)
        case .integer:
            guard let number = value.int64 else { throw SampleError("\(value.pointer): an integer past 64 bits") }
            self = .int(Int(number))
        case .double: self = .double(value.double ?? 0)
        case .string: self = .string(value.string ?? "")
        case .array: self = .array(try value.elements.map { (element) throws(SampleError) in try SampleValue(element) })
        case .object:
            var members: [Member] = []
            for (key, member) in value.members { members.append(Member(key.string ?? "", try SampleValue(member))) }
            self = .object(members)
        }
    }

    /// How the value is written: `compact` as bench/cost.py and the fuzz target send bodies, `python` as
    /// scripts/fuzz-seeds.py writes the seeds (Python's `json.dumps(value, ensure_ascii=False)`: ", " and ": ").
    public enum Style: Sendable {
        case compact, python
    }

    /// The value as JSON text, written as Python's json module writes it.
    public func json(_ style: Style) throws(SampleError) -> String {
        var out = ""
        try write(&out, style)
        return out
    }

    private func write(_ out: inout String, _ style: Style) throws(SampleError) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += try Self.pythonRepr(value)
        case .string(let text): Self.writeString(text, &out)
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += style == .compact ? "," : ", " }
                try element.write(&out, style)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += style == .compact ? "," : ", " }
                Self.writeString(member.key, &out)
                out += style == .compact ? ":" : ": "
                try member.value.write(&out, style)
            }
            out += "}"
        }
    }

    /// Rule (Python's json with ensure_ascii=False): `"` and `\` escaped, \n \r \t \b \f by name, the other
    /// controls below U+0020 as \u00xx; every other scalar as it is.
    private static func writeString(_ text: String, _ out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Rule (Python's float repr): the shortest digits that read back as the same double, in positional notation
    /// from 1e-4 up to 1e16 (with ".0" when whole) and scientific outside it. Swift's description differs only by
    /// going scientific from 2^53.
    static func pythonRepr(_ value: Double) throws(SampleError) -> String {
        guard value.isFinite else { throw SampleError("\(value) is not JSON") }
        let text = value.description
        guard abs(value) < 1e16, let e = text.firstIndex(of: "e") else { return text }
        let exponent = Int(text[text.index(after: e)...]) ?? 0
        guard exponent > 0 else { return text }
        let negative = text.hasPrefix("-")
        let digits = text[..<e].filter { $0.isNumber }
        return (negative ? "-" : "") + digits + String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + ".0"
    }
}

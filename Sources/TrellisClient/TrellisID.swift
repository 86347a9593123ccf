/// A client id as the API takes and returns it: a string or an integer, never converted into each other.
///
/// `"1"` and `1` are different ids. Integers are at most 2^53 in magnitude (the service's limit).
public enum TrellisID: Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral
{
    case string(String)
    case integer(Int64)

    public init(_ value: String) { self = .string(value) }
    public init(_ value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// Rule: a JSON string decodes as `.string`, a JSON number with no fraction as `.integer`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .integer(try container.decode(Int64.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        }
    }

    /// The id as written in JSON: strings quoted, integers bare.
    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        }
    }
}

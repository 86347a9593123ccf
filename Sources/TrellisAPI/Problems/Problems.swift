/// Collects every problem found while reading a request (the first 100 are kept).
public struct Problems: Sendable {
    public static let limit = 100
    public private(set) var list: [Problem] = []
    /// All problems found, including those past the limit.
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }

    public mutating func add(pointer: @autoclosure () -> String, _ detail: @autoclosure () -> String) {
        count += 1
        if list.count < Self.limit { list.append(Problem(pointer: pointer(), detail: detail())) }
    }

    public mutating func add(at value: JSONValue, _ detail: @autoclosure () -> String) {
        add(pointer: value.pointer, detail())
    }

    /// A problem with a member that is absent (or present), named relative to its object.
    public mutating func add(at object: JSONValue, member: String, _ detail: @autoclosure () -> String) {
        add(pointer: JSONPointer.appending(object.pointer, member), detail())
    }

    /// Client text quoted in a detail: at most 100 bytes of it, cut between characters.
    public static func quote(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > 100 { return "\"\(String(kept))…\"" }
            kept.append(scalar)
        }
        return "\"\(text)\""
    }
}

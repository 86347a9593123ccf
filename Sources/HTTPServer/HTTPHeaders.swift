/// Header fields in arrival order; names compare case-insensitively (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)]

    public init() {
        fields = []
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// The first value of the named field.
    public subscript(name: String) -> String? {
        for field in fields where Self.sameName(field.name, name) {
            return field.value
        }
        return nil
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p | 0x20 != q | 0x20 {
            return false
        }
        return true
    }
}

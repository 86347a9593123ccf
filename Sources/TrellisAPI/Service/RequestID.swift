/// X-Request-Id: the client's own when it is a sane token, else a new one that reveals nothing
/// (neither the process nor how many requests came before it).
public final class RequestID: Sendable {
    public init() {}

    /// The client's id when it is 1–128 visible ASCII characters.
    public static func accepts(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= 128 && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    public func id(for client: String?) -> String {
        if let client, Self.accepts(client) { return client }
        return Self.random()
    }

    /// 128 bits from the system's generator (getrandom), as 32 lowercase hex digits.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        return String(unsafeUninitializedCapacity: 32) { text in
            for i in 0..<16 {
                let nibble = Int(truncatingIfNeeded: (high >> UInt64(60 - 4 * i)) & 15)
                text[i] = nibble < 10 ? UInt8(48 + nibble) : UInt8(87 + nibble)
                let low4 = Int(truncatingIfNeeded: (low >> UInt64(60 - 4 * i)) & 15)
                text[16 + i] = low4 < 10 ? UInt8(48 + low4) : UInt8(87 + low4)
            }
            return 32
        }
    }
}

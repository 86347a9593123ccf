import Synchronization

/// X-Request-Id: the client's own when it is a sane token, else a new one.
public final class RequestID: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    public init() {
        var generator = SystemRandomNumberGenerator()
        let random = generator.next() as UInt64
        let hex = String(random, radix: 16)
        prefix = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The client's id when it is 1–128 visible ASCII characters.
    public static func accepts(_ id: String) -> Bool {
        let utf8 = id.utf8
        return !utf8.isEmpty && utf8.count <= 128 && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    public func id(for client: String?) -> String {
        if let client, Self.accepts(client) { return client }
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(n, radix: 16)
    }
}

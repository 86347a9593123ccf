import Synchronization

/// X-Request-Id: the client's own when it is a sane token, else a new one.
public final class RequestID: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    /// 8 random hex digits per process, then a counter: up to 15 characters (16M requests) the id
    /// is a small String, built without a heap allocation.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt32, radix: 16)
        prefix = String(repeating: "0", count: 8 - hex.count) + hex
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

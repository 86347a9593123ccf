import Glibc

/// One received header field: two C strings owned by the server, valid during the handler call. A
/// homogeneous tuple, laid out as C's `const char *[2]`: the shim's `tmhd_header` is pinned to it.
package typealias HTTPReceivedField = (name: UnsafePointer<CChar>, value: UnsafePointer<CChar>)

/// Header fields; names compare case-insensitively (RFC 9110 §5.1). A request's fields stay in
/// the server's memory and are read only when asked for (valid during the handler call).
public struct TrellisHeaders: Sendable, ExpressibleByDictionaryLiteral {
    /// Fields added in Swift (a response's headers), in order.
    public private(set) var fields: [(name: String, value: String)]
    private var received: Received?

    /// A request's fields as the server received them.
    struct Received: @unchecked Sendable {
        // @unchecked: C strings owned by the server, read only on the handler's own thread.
        let base: UnsafePointer<HTTPReceivedField>
        let count: Int
    }

    public init() {
        fields = []
    }

    package init(received base: UnsafePointer<HTTPReceivedField>?, count: Int) {
        fields = []
        if let base { received = Received(base: base, count: count) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// The bytes of the named field's first value (nil when absent); a received one is read in
    /// place, without making a String.
    public func withValue<R>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        if let found = receivedValue(name) {
            return body(UnsafeBufferPointer(start: UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self), count: strlen(found)))
        }
        guard var value = fields.first(where: { Self.sameName($0.name, name) })?.value else { return body(nil) }
        return value.withUTF8 { body($0) }
    }

    /// The received field's first value, compared case-insensitively.
    private func receivedValue(_ name: String) -> UnsafePointer<CChar>? {
        guard let received else { return nil }
        return name.withCString { wanted -> UnsafePointer<CChar>? in
            for i in 0..<received.count where strcasecmp(received.base[i].name, wanted) == 0 {
                return received.base[i].value
            }
            return nil
        }
    }

    /// The first value of the named field.
    public subscript(name: String) -> String? {
        if let found = receivedValue(name) { return String(cString: found) }
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

/// A stored font's content address: the SHA-256 of the file's bytes as the client sent them, written
/// `sha256-` followed by 64 lowercase hex digits.
public struct FontID: Hashable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let digest: [UInt8]

    public static let prefix = "sha256-"

    /// nil unless `digest` has 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.digest = digest
    }

    /// Rule: an id is `sha256-` and exactly 64 lowercase hex digits; nil otherwise.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        let prefix = Array(Self.prefix.utf8)
        guard bytes.count == prefix.count + 64, bytes.starts(with: prefix) else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        var index = prefix.count
        while index < bytes.count {
            guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else { return nil }
            digest.append(high << 4 | low)
            index += 2
        }
        self.digest = digest
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array(Self.prefix.utf8)
        for byte in digest { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}

/// An OpenType tag (a table, feature or variation axis): four ASCII characters, stored as the big-endian
/// 32-bit number OpenType and HarfBuzz use.
public struct FontTag: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    public init(_ value: UInt32) { self.value = value }

    /// Rule: a tag is exactly four characters U+20–U+7E (CSS `<opentype-tag>`); nil otherwise.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return nil }
        value = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public var description: String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }, as: UTF8.self)
    }

    public static let weight = FontTag(0x7767_6874)  // 'wght'
    public static let width = FontTag(0x7764_7468)  // 'wdth'
    public static let slant = FontTag(0x736C_6E74)  // 'slnt'
    public static let italic = FontTag(0x6974_616C)  // 'ital'
    public static let opticalSize = FontTag(0x6F70_737A)  // 'opsz'
}

/// Content-Type checks on the bytes of the header's value.
enum MediaType {
    /// application/json or any +json type, with or without parameters (RFC 6839), case-insensitive.
    static func isJSON(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { isJSON(bytes: $0) }
    }

    static func isJSON(bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let bytes else { return false }
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let mediaType = UnsafeBufferPointer(rebasing: bytes[..<end])
        return equalsIgnoringCase(mediaType, "application/json")
            || (hasPrefixIgnoringCase(mediaType, "application/") && hasSuffixIgnoringCase(mediaType, "+json"))
    }

    /// Rule: a font upload is sent as a `font/*` type (RFC 8081: font/ttf, font/otf, font/collection, font/woff,
    /// font/woff2, font/sfnt) or as application/octet-stream, with or without parameters, case-insensitive.
    static func isFont(bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let bytes else { return false }
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let mediaType = UnsafeBufferPointer(rebasing: bytes[..<end])
        return (hasPrefixIgnoringCase(mediaType, "font/") && mediaType.count > 5 && !mediaType.contains(UInt8(ascii: "/"), after: 5))
            || equalsIgnoringCase(mediaType, "application/octet-stream")
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && hasPrefixIgnoringCase(bytes, text)
    }

    private static func hasPrefixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        for i in 0..<n where bytes[i] | 0x20 != text.utf8Start[i] | 0x20 { return false }
        return true
    }

    private static func hasSuffixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        return hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: bytes[(bytes.count - n)...]), text)
    }
}

private extension UnsafeBufferPointer<UInt8> {
    func contains(_ byte: UInt8, after start: Int) -> Bool { self[start...].contains(byte) }
}

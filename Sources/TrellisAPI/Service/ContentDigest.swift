import CCryptoShim

/// SHA-256 from OpenSSL's libcrypto, and the ways its digests are written: lowercase hex (fonts' content ids,
/// entity tags) and base64 (CSP hash sources).
enum ContentDigest {
    /// The 32-byte SHA-256 digest of `bytes`; nil when libcrypto ran out of memory.
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(TCRYPTO_SHA256_LENGTH))
        let status = digest.withUnsafeMutableBufferPointer { out in
            tcrypto_sha256(bytes.baseAddress, bytes.count, out.baseAddress)
        }
        return status == 0 ? digest : nil
    }

    /// The digest of bytes fixed at start (an embedded file, a listing); nil when libcrypto ran out of memory.
    static func sha256<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8]? {
        if let digest = bytes.withContiguousStorageIfAvailable({ sha256(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { sha256($0) }
    }

    static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// RFC 4648 §4 base64 with padding (CSP hash sources are written this way).
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var text: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for j in 0..<4 { text.append(j <= n ? alphabet[Int(chunk >> UInt32(18 - 6 * j) & 63)] : UInt8(ascii: "=")) }
            i += 3
        }
        return String(decoding: text, as: UTF8.self)
    }
}

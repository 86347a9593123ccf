extension String {
    /// The number of Unicode scalars, as `unicodeScalars.count` gives it, counted over the UTF-8 bytes that start a
    /// scalar (no decoding: `unicodeScalars.count` decodes each scalar, about 27 instructions a scalar), eight bytes
    /// at a time: the bytes of a word that continue a scalar (10xxxxxx) are counted off.
    var scalarCount: Int {
        utf8.withContiguousStorageIfAvailable { bytes in
            let high: UInt64 = 0x8080_8080_8080_8080
            var count = bytes.count
            var i = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    // Bit 7 set and bit 6 clear in a byte: a continuation byte; the bytes' 0 or 1 summed into the top
                    // byte by a multiplication (no popcount instruction in the baseline x86-64 this is built for).
                    let continuations = (word & ~(word << 1) & high) >> 7
                    count -= Int(truncatingIfNeeded: (continuations &* 0x0101_0101_0101_0101) >> 56)
                    i += 8
                }
            }
            while i < bytes.count {
                if bytes[i] & 0xC0 == 0x80 { count -= 1 }
                i += 1
            }
            return count
        } ?? unicodeScalars.count
    }
}

/// SipHash (Aumasson and Bernstein, "SipHash: a fast short-input PRF"), the keyed hash Swift's `Hasher` runs
/// (SipHash-1-3), over bytes read eight at a time: a kept paragraph's text is hashed once a lookup, and
/// `Hasher.combine(bytes:)` took about twice as long over the same bytes.
enum SipHash {
    /// SipHash-1-3 of `bytes` under `key`.
    static func hash13(_ bytes: UnsafeRawBufferPointer, key: (UInt64, UInt64)) -> UInt64 {
        hash(bytes, key: key, compressionRounds: 1, finalizationRounds: 3)
    }

    /// SipHash-c-d: each 8-byte word little-endian, the last holding the rest and the length's low byte at the top.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, key: (UInt64, UInt64), compressionRounds: Int, finalizationRounds: Int) -> UInt64 {
        var state = State(key: key, compressionRounds: compressionRounds)
        let count = bytes.count
        let whole = count & ~7
        var offset = 0
        while offset < whole {
            state.combine(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        return state.finalize(last, rounds: finalizationRounds)
    }

    /// SipHash's state over a sequence of 64-bit words (a caller that packs its own words hashes them directly).
    struct State {
        private var v0: UInt64
        private var v1: UInt64
        private var v2: UInt64
        private var v3: UInt64
        private let compressionRounds: Int

        @inline(__always)
        init(key: (UInt64, UInt64), compressionRounds: Int = 1) {
            v0 = key.0 ^ 0x736f_6d65_7073_6575
            v1 = key.1 ^ 0x646f_7261_6e64_6f6d
            v2 = key.0 ^ 0x6c79_6765_6e65_7261
            v3 = key.1 ^ 0x7465_6462_7974_6573
            self.compressionRounds = compressionRounds
        }

        @inline(__always)
        private mutating func round() {
            v0 &+= v1
            v1 = v1 << 13 | v1 >> 51
            v1 ^= v0
            v0 = v0 << 32 | v0 >> 32
            v2 &+= v3
            v3 = v3 << 16 | v3 >> 48
            v3 ^= v2
            v0 &+= v3
            v3 = v3 << 21 | v3 >> 43
            v3 ^= v0
            v2 &+= v1
            v1 = v1 << 17 | v1 >> 47
            v1 ^= v2
            v2 = v2 << 32 | v2 >> 32
        }

        @inline(__always)
        mutating func combine(_ word: UInt64) {
            v3 ^= word
            for _ in 0..<compressionRounds { round() }
            v0 ^= word
        }

        /// The hash, `last` the final word (SipHash's: the rest of the bytes and the length).
        @inline(__always)
        mutating func finalize(_ last: UInt64, rounds: Int = 3) -> UInt64 {
            combine(last)
            v2 ^= 0xff
            for _ in 0..<rounds { round() }
            return v0 ^ v1 ^ v2 ^ v3
        }
    }

    /// A key from the process's random seed (Swift's `Hasher`, which `SWIFT_DETERMINISTIC_HASHING` fixes).
    static let processKey: (UInt64, UInt64) = {
        var a = Hasher()
        a.combine(0x6b65_7930 as UInt64)
        var b = Hasher()
        b.combine(0x6b65_7931 as UInt64)
        return (UInt64(truncatingIfNeeded: a.finalize()), UInt64(truncatingIfNeeded: b.finalize()))
    }()
}

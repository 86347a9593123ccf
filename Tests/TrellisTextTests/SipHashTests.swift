import XCTest

@testable import TrellisText

/// The shaping cache's text hash is SipHash read eight bytes at a time: its structure (the words, the last word's
/// rest and length, the finalization) is checked at SipHash-2-4 against the reference implementation's published
/// outputs (key 00 01 … 0f, message 00 01 … (n - 1)); the cache runs it at 1-3, Swift's `Hasher`'s rounds.
final class SipHashTests: XCTestCase {
    private let referenceKey: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)

    private func sip24(_ count: Int) -> UInt64 {
        let message = (0..<count).map { UInt8($0) }
        return message.withUnsafeBytes { SipHash.hash($0, key: referenceKey, compressionRounds: 2, finalizationRounds: 4) }
    }

    func testSipHash24MatchesTheReferenceOutputs() {
        XCTAssertEqual(sip24(0), 0x726f_db47_dd0e_0e31)
        XCTAssertEqual(sip24(15), 0xa129_ca61_49be_45e5)
    }

    func testEveryByteAndTheLengthCount() {
        var seen = Set<UInt64>()
        for count in 0...40 {
            var message = [UInt8](repeating: 0x61, count: count)
            seen.insert(message.withUnsafeBytes { SipHash.hash13($0, key: referenceKey) })
            for i in 0..<count {
                message[i] = 0x62
                seen.insert(message.withUnsafeBytes { SipHash.hash13($0, key: referenceKey) })
                message[i] = 0x61
            }
        }
        // 41 lengths of "a"s and 820 of them with one "b": all different.
        XCTAssertEqual(seen.count, 41 + (0...40).reduce(0, +))
    }
}

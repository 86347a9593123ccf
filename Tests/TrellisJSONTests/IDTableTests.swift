import XCTest
@testable import TrellisJSON

final class IDTableTests: XCTestCase {
    func testNumbersIdsFindsThemAgainAndReportsDuplicates() {
        // Ids 0..<5000 as integers, then the same as strings, then a repeat of each kind.
        let ints = (0..<5000).map(String.init)
        let strings = (0..<5000).map { "\"\($0)\"" }
        let text = "[" + (ints + strings + ["17", "\"17\"", "\"é\"", "\"e\\u0301\"", "\"\""]).joined(separator: ",") + "]"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape)
            for (i, value) in values.enumerated() {
                let duplicate = table.append(value)
                switch i {
                case 10_000: XCTAssertEqual(duplicate, 17, "integer 17 repeats entry 17")
                case 10_001: XCTAssertEqual(duplicate, 5017, "string \"17\" repeats entry 5017")
                default: XCTAssertNil(duplicate, "entry \(i)")
                }
            }
            XCTAssertEqual(table.count, values.count)
            for i in [0, 4999, 5000, 9999, 10_002, 10_003, 10_004] {
                XCTAssertEqual(table.entry(of: values[i]), i, "a canonically equivalent string is still a different id")
            }
            XCTAssertEqual(table.value(of: 5000)?.string, "0")
        }
    }

    func testEntriesWithoutAValidIdAreNumberedButNeverFound() {
        let bytes = Array(#"["a", null, "b"]"#.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape)
            XCTAssertNil(table.append(values[0]))
            XCTAssertNil(table.append(nil))
            XCTAssertNil(table.append(values[2]))
            XCTAssertNil(table.value(of: 1))
            XCTAssertEqual(table.entry(of: values[2]), 2)
        }
    }

    func testDenseIdsAreFoundByValueAndNothingElseIs() {
        let bytes = Array(#"[[5, 6, 7, null, 9], ["6", 6.0, 8, 4, -1, 9223372036854775807, 9.5, 9]]"#.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let lists = Array(document.root.elements)
            let ids = Array(lists[0].elements), probes = Array(lists[1].elements)
            var table = IDTable(document: document.tape)
            for (i, id) in ids.enumerated() { XCTAssertNil(table.append(i == 3 ? nil : id)) }
            XCTAssertEqual(table.probes, 0)
            // "6" is a string, not the integer 6; 8 is the entry without an id; 4 and -1 are below the run.
            XCTAssertEqual(probes.map { table.entry(of: $0) }, [nil, 1, nil, nil, nil, nil, nil, 4])
            XCTAssertEqual(table.value(of: 4)?.int64, 9)
        }
    }

    func testARunOfDenseIdsThatBreaksGoesOnHashed() {
        let bytes = Array(#"[10, 11, 12.0, 13, null, 15, "16", 16, 12, 3]"#.utf8)
        bytes.withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape)
            let duplicates = values.enumerated().map { table.append($0.offset == 4 ? nil : $0.element) }
            // The string "16" ends the run; 16 is not a duplicate of it; 12 repeats 12.0.
            XCTAssertEqual(duplicates, [nil, nil, nil, nil, nil, nil, nil, nil, 2, nil])
            XCTAssertEqual(values.map { table.entry(of: $0) }, [0, 1, 2, 3, nil, 5, 6, 7, 2, 9])
        }
    }

    func testIntegerIdsOfAWindowInAnyOrderAreFoundWithoutHashing() {
        // 100..<600 in a scrambled order (a nested tree's ids come in pre-order, not 0, 1, 2, …), then repeats.
        let ids = (0..<500).map { 100 + ($0 * 337) % 500 }
        let text = "[[" + ids.map(String.init).joined(separator: ",") + #"], [300, 412.0, 99, 600, "150", 5000, 101]]"#
        Array(text.utf8).withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let lists = Array(document.root.elements)
            let values = Array(lists[0].elements), more = Array(lists[1].elements)
            var table = IDTable(document: document.tape, expectedCount: 500)
            for value in values { XCTAssertNil(table.append(value)) }
            XCTAssertFalse(table.direct.isEmpty, "direct mode")
            XCTAssertEqual(table.probes, 0)
            for (entry, value) in values.enumerated() { XCTAssertEqual(table.entry(of: value), entry) }
            // Below and above the ids, a string that reads like one, and a number far out are no entry.
            XCTAssertEqual(more.map { table.entry(of: $0) }, [ids.firstIndex(of: 300), ids.firstIndex(of: 412), nil, nil, nil, nil,
                                                               ids.firstIndex(of: 101)])
            // Repeats (412.0 is 412) name the first entry, and are numbered all the same.
            XCTAssertEqual(table.append(more[0]), ids.firstIndex(of: 300))
            XCTAssertEqual(table.append(more[1]), ids.firstIndex(of: 412))
            XCTAssertEqual(table.count, 502)
            var json = JSONWriter()
            table.write(ids.firstIndex(of: 412)!, to: &json)
            XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), "412")
        }
    }

    func testAnIdOutsideTheWindowOrAStringGoesOnHashedKeepingEveryEntry() {
        for tail in ["5000", #""x""#] {
            let text = "[0, 2, 1, 3, \(tail), 2, 4, \(tail), -7]"
            Array(text.utf8).withUnsafeBytes { raw in
                guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
                let values = Array(document.root.elements)
                // A window for 4 expected ids spans 72 values: 5000 is outside it.
                var table = IDTable(document: document.tape, expectedCount: 4)
                let duplicates = values.map { table.append($0) }
                XCTAssertTrue(table.direct.isEmpty, "hashed after \(tail)")
                XCTAssertEqual(duplicates, [nil, nil, nil, nil, nil, 1, nil, 4, nil], tail)
                XCTAssertEqual(values.map { table.entry(of: $0) }, [0, 1, 2, 3, 4, 1, 6, 4, 8], tail)
            }
        }
    }

    /// Inserts every value of a JSON array into a fresh table and returns the occupied slots passed over.
    private func probes(_ text: String, seed: Int) -> Int {
        Array(text.utf8).withUnsafeBytes { raw -> Int in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else {
                XCTFail("parse")
                return 0
            }
            let values = Array(document.root.elements)
            var table = IDTable(document: document.tape, expectedCount: values.count, seed: seed)
            for value in values { XCTAssertNil(table.append(value)) }
            return table.probes
        }
    }

    /// Integers that all land in one slot of the unseeded hash this table used before (a multiply by
    /// 0x9E3779B97F4A7C15 and an xor-shift by 29): computed directly, as an attacker would. With the
    /// seeded hash they spread like any other ids.
    func testIntegersThatCollidedInTheOldHashSpreadOut() {
        let n = 2048, mask: UInt64 = 4095 // a table for 2,048 ids has 4,096 slots
        let inverse = Self.inverse(0x9E37_79B9_7F4A_7C15)
        var generator = SystemRandomNumberGenerator()
        var family: [Int64] = []
        while family.count < n {
            // h with (h ^ h >> 29) & mask == 0, then x = h / multiplier; kept when |x| ≤ 2^53.
            let top = generator.next() >> 29
            let h = top << 29 | (generator.next() & 0x1FFF_F000 & ~mask) | (top & mask)
            let x = Int64(bitPattern: h &* inverse)
            guard x.magnitude <= 1 << 53 else { continue }
            let old = UInt64(bitPattern: x) &* 0x9E37_79B9_7F4A_7C15
            XCTAssertEqual((old ^ (old >> 29)) & mask, 0)
            family.append(x)
        }
        let text = "[" + family.map(String.init).joined(separator: ",") + "]"
        // Quadratic would be ~n²/2 = 2 million; linear probing at half load passes ~0.5 slots per insertion.
        XCTAssertLessThan(probes(text, seed: 0), 4 * n)
    }

    /// Strings that all land in one slot for one seed: inserted with that seed they pile up (the family
    /// is real), with another seed they spread out, so a client that can't know the seed can't pile them.
    func testAStringCollisionFamilyForOneSeedSpreadsUnderAnother() {
        let n = 512, mask = 1023 // a table for 512 ids has 1,024 slots
        let attacked = 12345
        // Short ids (one-word hash) and long ones (streaming hash).
        for prefix in ["k", "a-longer-id-"] {
            var family: [String] = []
            var k = 0
            while family.count < n {
                var id = "\(prefix)\(k)"
                k += 1
                let hash = id.withUTF8 { IDTable.hash(string: UnsafeRawBufferPointer($0), seed: attacked) }
                if hash & mask == 0 { family.append(id) }
            }
            let text = "[" + family.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            XCTAssertGreaterThan(probes(text, seed: attacked), n * (n - 1) / 2 - n, "\(prefix): the family collides for the seed it was made for")
            XCTAssertLessThan(probes(text, seed: 0), 4 * n, prefix)
            XCTAssertLessThan(probes(text, seed: 777), 4 * n, prefix)
        }
    }

    /// The multiplicative inverse modulo 2^64 of an odd number (Newton's iteration).
    private static func inverse(_ a: UInt64) -> UInt64 {
        var x = a
        for _ in 0..<5 { x = x &* (2 &- a &* x) }
        return x
    }
}

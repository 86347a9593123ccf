import XCTest
@testable import TrellisJSON

/// The JSON view over simdjson's tape, the problem collector and the writer.
final class JSONLayerTests: XCTestCase {
    /// Parses `text` (unpadded, so the shim copies) and hands the root to `body`.
    func withJSON<R>(_ text: String, _ body: (JSONValue) throws -> R) throws -> R {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            switch JSONDocument.parse(raw, padded: false) {
            case .success(let document): return try body(document.root)
            case .failure(let error): throw error
            }
        }
    }

    func parseError(_ bytes: [UInt8]) -> JSONParseError? {
        bytes.withUnsafeBytes { raw in
            if case .failure(let error) = JSONDocument.parse(raw, padded: false) { return error }
            return nil
        }
    }

    func written(_ build: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        build(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: reading

    func testKindsAndScalars() throws {
        try withJSON(#"{"s":"héllo","i":-42,"u":18446744073709551615,"d":1.5,"t":true,"f":false,"n":null}"#) { root in
            XCTAssertEqual(root.kind, .object)
            XCTAssertEqual(root.member("s")?.string, "héllo")
            XCTAssertEqual(root.member("i")?.int64, -42)
            XCTAssertEqual(root.member("u")?.kind, .integer)
            XCTAssertNil(root.member("u")?.int64, "2^64-1 does not fit Int64")
            XCTAssertEqual(root.member("u")?.double, 18446744073709551615.0)
            XCTAssertEqual(root.member("d")?.double, 1.5)
            XCTAssertNil(root.member("d")?.int64)
            XCTAssertEqual(root.member("t")?.bool, true)
            XCTAssertEqual(root.member("f")?.bool, false)
            XCTAssertEqual(root.member("n")?.isNull, true)
            XCTAssertNil(root.member("missing"))
            XCTAssertEqual(root.count, 7)
        }
    }

    func testDuplicateKeysLastOneWins() throws {
        try withJSON(#"{"a":1,"b":2,"a":3}"#) { root in
            XCTAssertEqual(root.member("a")?.int64, 3)
        }
    }

    func testNumbersAtTheEdges() throws {
        try withJSON(#"[-0, 1e-400, 9007199254740993, -9223372036854775808, 1.7976931348623157e308, 5e-324]"#) { root in
            let values = Array(root.elements)
            XCTAssertEqual(values[0].double, 0)
            XCTAssertEqual(values[1].double, 0, "underflow rounds to zero")
            XCTAssertEqual(values[2].int64, 9_007_199_254_740_993)
            XCTAssertEqual(values[3].int64, Int64.min)
            XCTAssertEqual(values[4].double, .greatestFiniteMagnitude)
            XCTAssertEqual(values[5].double, .leastNonzeroMagnitude)
        }
        XCTAssertNotNil(parseError(Array("[1e400]".utf8)), "overflow to infinity is refused")
        XCTAssertNotNil(parseError(Array("[NaN]".utf8)))
        XCTAssertNotNil(parseError(Array("[Infinity]".utf8)))
    }

    /// Contract (schemathesis): an integer literal beyond 64 bits is valid JSON, and simdjson 3.0
    /// refused it, so a body with one anywhere, even in an ignored member, was a 400. It is read
    /// as a double, as JavaScript's JSON.parse reads it; strings that look like one are untouched.
    func testIntegersBeyond64BitsAreReadAsDoubles() throws {
        let text = #"""
            {"big":18446744073709551616,"low":-9223372036854775809,"huge":123456789012345678901234567890,
             "s":"18446744073709551616","e":"\"99999999999999999999999","max":18446744073709551615,"min":-9223372036854775808}
            """#
        try withJSON(text) { root in
            XCTAssertEqual(root.member("big")?.kind, .double)
            XCTAssertEqual(root.member("big")?.double, 18446744073709551616.0)
            XCTAssertNil(root.member("big")?.int64)
            XCTAssertEqual(root.member("low")?.double, -9223372036854775809.0)
            XCTAssertEqual(root.member("huge")?.double, 123456789012345678901234567890.0)
            XCTAssertEqual(root.member("s")?.string, "18446744073709551616")
            XCTAssertEqual(root.member("e")?.string, #""99999999999999999999999"#)
            XCTAssertEqual(root.member("max")?.kind, .integer)
            XCTAssertEqual(root.member("min")?.int64, Int64.min)
        }
        for bad in ["[18446744073709551616, 1e400]", "[0123456789012345678901234]", "[18446744073709551616", "[-]"] {
            guard case .invalid = parseError(Array(bad.utf8)) else { return XCTFail("accepted \(bad)") }
        }
    }

    /// Contract (schemathesis): JSON Schema's `integer` is any number without a fraction, so 2.0
    /// is the integer 2 (JavaScript cannot even tell them apart).
    func testIntegralDecimalsAreIntegers() throws {
        try withJSON("[2.0, -0.0, 1e3, -9223372036854775808.0, 2.5, 9223372036854775808.0, 1e300, 3]") { root in
            let values = Array(root.elements)
            XCTAssertEqual(values[0].int64, 2)
            XCTAssertEqual(values[1].int64, 0)
            XCTAssertEqual(values[2].int64, 1000)
            XCTAssertEqual(values[3].int64, Int64.min)
            XCTAssertNil(values[4].int64)
            XCTAssertFalse(values[4].isIntegral)
            XCTAssertNil(values[5].int64, "2^63 does not fit Int64")
            XCTAssertNil(values[6].int64)
            XCTAssertTrue(values[6].isIntegral)
            XCTAssertEqual(values[7].int64, 3)
        }
    }

    func testEscapesAndUnicodeInStrings() throws {
        try withJSON(#"["\u00e9\ud83d\ude00\n\"\\\/\u0000", "日本語"]"#) { root in
            let values = Array(root.elements)
            XCTAssertEqual(values[0].string, "é😀\n\"\\/\u{0}")
            XCTAssertEqual(values[1].string, "日本語")
        }
    }

    func testParseErrors() {
        XCTAssertEqual(parseError(Array(String(repeating: "[", count: 1025).utf8) + Array(String(repeating: "]", count: 1025).utf8)), .tooDeep(limit: 1024))
        XCTAssertNil(parseError(Array(String(repeating: "[", count: 1024).utf8) + Array(String(repeating: "]", count: 1024).utf8)))
        for bad in [[], Array("{".utf8), Array("[1,]".utf8), [0x22, 0xFF, 0x22], Array("\"a\u{0}b\"".utf8), [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]] {
            guard case .invalid = parseError(bad) else { return XCTFail("accepted \(bad)") }
        }
    }

    /// A hundred problems at the end of a long array are pointed at in one walk, not one walk each.
    func testPointersToManyProblemsTakeOneWalk() throws {
        let n = 200_000
        let text = #"{"a":{"b":1},"expanded":["# + (0..<n).map(String.init).joined(separator: ",") + "]}"
        try Array(text.utf8).withUnsafeBytes { raw in
            guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { return XCTFail("parse") }
            let elements = Array(try XCTUnwrap(document.root.member("expanded")).elements)
            let targets = elements.suffix(100).map(\.index)
            var steps = 0
            let pointers = JSONPointer.pointers(to: targets, in: document.tape, steps: &steps)
            XCTAssertEqual(pointers.first, "/expanded/\(n - 100)")
            XCTAssertEqual(pointers.last, "/expanded/\(n - 1)")
            XCTAssertLessThan(steps, n + 1000, "one walk over the array, not one per problem (100 × n)")
            var problems = Problems()
            for element in elements.suffix(100) { problems.add(at: element, "bad") }
            XCTAssertEqual(problems.list.map(\.pointer), (n - 100..<n).map { "/expanded/\($0)" })
            XCTAssertEqual(JSONPointer.escape(String(repeating: "~/", count: 1 << 19)), String(repeating: "~0~1", count: 1 << 19))
        }
    }

    func testPointersEscapeTildeAndSlash() throws {
        try withJSON(#"{"a/b":{"m~n":[0,{"x":true}]}}"#) { root in
            let x = Array(root.member("a/b")!.member("m~n")!.elements)[1].member("x")!
            XCTAssertEqual(x.pointer, "/a~1b/m~0n/1/x")
            XCTAssertEqual(root.pointer, "")
        }
    }

    func testProblemsKeepTheFirst100AndCountAll() {
        var problems = Problems()
        for i in 0..<150 { problems.add(pointer: "/\(i)", "bad") }
        XCTAssertEqual(problems.count, 150)
        XCTAssertEqual(problems.list.count, 100)
        XCTAssertEqual(problems.list.last?.pointer, "/99")
    }

    func testQuotingCutsClientTextAt100BytesOnACharacterBoundary() {
        XCTAssertEqual(Problems.quote("short"), "\"short\"")
        let quoted = Problems.quote(String(repeating: "é", count: 80))
        XCTAssertEqual(quoted, "\"" + String(repeating: "é", count: 50) + "…\"")
    }

    // MARK: writing

    func testWriterEscapesStrings() {
        XCTAssertEqual(written { $0.string("a\"b\\c\n\r\t\u{1}\u{1F}é😀/") }, #""a\"b\\c\n\r\t\u0001\u001fé😀/""#)
    }

    /// Every kind of byte that needs escaping, at every position of strings of plain ASCII and of
    /// multi-byte UTF-8 (the writer skips eight bytes at a time when none of them needs it).
    func testWriterEscapesEveryByteAtEveryPosition() {
        let special: [(String, String)] = [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#), ("\u{7F}", "\u{7F}")]
        for fill in ["a", "é", "😀"] {
            for before in 0...12 {
                for after in 0...12 {
                    let head = String(repeating: fill, count: before), tail = String(repeating: fill, count: after)
                    for (raw, escaped) in special {
                        XCTAssertEqual(written { $0.string(head + raw + tail) }, "\"" + head + escaped + tail + "\"")
                    }
                    XCTAssertEqual(written { $0.string(head + tail) }, "\"" + head + tail + "\"")
                }
            }
        }
    }

    /// Integers at every decimal length's edges, both signs, as Swift prints them.
    func testWriterIntegersAtEveryDigitCount() {
        var values: [Int] = [0, 1, -1, .max, .min, .min + 1]
        var power = 1
        for _ in 1...18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, power + power / 2]
        }
        for value in values {
            XCTAssertEqual(written { $0.int(value) }, String(value))
            if value.magnitude <= 1 << 53 { XCTAssertEqual(written { $0.number(Double(value)) }, String(value)) }
        }
        // Every value below 20,000 (the digit-by-digit path and the first two groups of four), and a sample of each
        // group boundary up to 10^8 (two groups) and past it.
        var generator = SystemRandomNumberGenerator()
        let sample = Array(0..<20_000) + (0..<20_000).map { _ in Int.random(in: 0..<100_000_000, using: &generator) }
            + (0..<2_000).map { _ in Int.random(in: 100_000_000...Int.max, using: &generator) }
        let expected = "[" + sample.map(String.init).joined(separator: ",") + "]"
        XCTAssertEqual(written { json in
            json.beginArray()
            for value in sample { json.int(value) }
            json.endArray()
        }, expected)
    }

    func testWriterNumbers() {
        XCTAssertEqual(written {
            $0.beginArray()
            for x in [0, -0.0, 4, -12, 0.1, 1e-7, 1.5e300, 9007199254740992, 1.2345678901234568e20, 2.5] { $0.number(x) }
            $0.endArray()
        }, "[0,0,4,-12,0.1,1e-07,1.5e+300,9007199254740992,1.2345678901234568e+20,2.5]")
    }

    /// The bulk writers write what one call per value writes, byte for byte, and stop where it stops at the answer's
    /// limit (the same failure, the same bytes kept), whatever the values and the room left.
    func testBulkWritersWriteWhatOneCallPerValueWrites() {
        var state: UInt64 = 0x5eed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for round in 0..<300 {
            let count = Int(next() % 300)
            let doubles = (0..<count).map { _ -> Double in
                switch next() % 6 {
                case 0: Double(Int(next() % 2_000_000)) - 1_000_000
                case 1: Double(Int(next() % 100_000)) / 64
                case 2: Double(bitPattern: next() << 11 | next() % 2048)
                case 3: 9_007_199_254_740_992 * (next() % 2 == 0 ? 1 : -1) * Double(1 + next() % 3)
                default: Double(next() % 1000)
                }
            }.filter(\.isFinite)
            let ints = doubles.map { Int(truncatingIfNeeded: $0.bitPattern) >> Int(next() % 64) }
            let bools = doubles.map { $0 < 0 }
            let limit = round % 3 == 0 ? Int.max : 16 + Int(next() % 3000)
            func write(bulk: Bool) -> (String, JSONWriter.Failure?) {
                var json = JSONWriter(capacity: 16 + Int(next() % 4096), limit: limit)
                json.beginArray()
                if bulk {
                    json.numbers(doubles.count) { doubles[$0] }
                    json.ints(ints.count) { ints[$0] }
                    json.bools(bools.count) { bools[$0] }
                } else {
                    for x in doubles where json.failure == nil { json.number(x) }
                    for x in ints where json.failure == nil { json.int(x) }
                    for x in bools where json.failure == nil { json.bool(x) }
                }
                json.endArray()
                return (String(decoding: json.bytes, as: UTF8.self), json.failure)
            }
            let one = write(bulk: false), bulk = write(bulk: true)
            XCTAssertEqual(bulk.0, one.0, "round \(round)")
            XCTAssertEqual(bulk.1, one.1, "round \(round)")
        }
    }

    func testWriterStructure() {
        XCTAssertEqual(written {
            $0.beginObject()
            $0.key("a"); $0.beginArray(); $0.int(1); $0.bool(true); $0.null(); $0.beginObject(); $0.endObject(); $0.endArray()
            $0.key("b"); $0.string("x")
            $0.key("c"); $0.beginArray(); $0.endArray()
            $0.endObject()
        }, #"{"a":[1,true,null,{}],"b":"x","c":[]}"#)
    }

    /// A part's bound holds for every kind of write, also where the buffer has already grown past it: nothing is
    /// written past the bound, the part fails as too large, and after a rewind the writer goes on within its limit.
    func testWriterKeepsAPartsBoundInsideABufferThatGrewPastIt() {
        let writes: [(String, (inout JSONWriter) -> Void)] = [
            ("int", { $0.int(123_456_789) }), ("number", { $0.number(0.1) }), ("string", { $0.string("abcdefghijklmnop") }),
            ("escaped", { $0.string("a\"b\u{1}c") }), ("key", { $0.key("member") }), ("bool", { $0.bool(false) }),
            ("null", { $0.null() }), ("object", { $0.beginObject() }),
        ]
        for (name, write) in writes {
            var json = JSONWriter(capacity: 16, limit: 1 << 20)
            json.beginArray()
            for _ in 0..<10_000 { json.int(7) }
            json.endArray()
            XCTAssertNil(json.failure)
            // The buffer now has room for far more than the part about to be bounded.
            let mark = json.mark
            let start = json.count
            json.bound(to: start + 100)
            while json.failure == nil { write(&json) }
            XCTAssertEqual(json.failure, .tooLarge, name)
            XCTAssertLessThanOrEqual(json.count, start + 100, name)
            json.bound(to: nil)
            json.rewind(to: mark)
            json.int(1)
            XCTAssertNil(json.failure, name)
            XCTAssertEqual(json.count, start + 2, name)
        }
    }

    func testWriterReEmitsAnyClientValue() throws {
        let source = #"{"k":[1,-2,3.25,"s\u0001",true,false,null,{"n":{"m":[[],{}]}}],"日本":"語","u":18446744073709551615}"#
        try withJSON(source) { root in
            XCTAssertEqual(written { $0.value(root) }, #"{"k":[1,-2,3.25,"s\u0001",true,false,null,{"n":{"m":[[],{}]}}],"日本":"語","u":18446744073709551615}"#)
            XCTAssertEqual(written { $0.beginArray(); $0.value(root.member("u")!); $0.value(root.member("日本")!); $0.endArray() }, #"[18446744073709551615,"語"]"#)
        }
    }

    func testWriterReEmitsDeepValuesWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 1000) + "1" + String(repeating: "]", count: 1000)
        try withJSON(deep) { root in
            XCTAssertEqual(written { $0.value(root) }, deep)
        }
    }
}

/// The writer's doubles are exactly Swift's `description`.
final class JSONWriterDoubleTests: XCTestCase {
    func testDoublesMatchDescriptionOnRandomValues() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0.1, 1.0 / 3, 0.7574549580288646, 0.016666666666666666, 2.5e-8, 123456.789, 1e21, 1e22, 9.007199254740993e15, -0.75, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, -1.7976931348623157e-300]
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: generator.next()))
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
        }
        for (i, value) in values.enumerated() where value.isFinite && value != value.rounded() || abs(value) > 9_007_199_254_740_992 {
            guard value.isFinite else { continue }
            // After 0 to 7 bytes of other output, so the number starts at every alignment.
            let prefix = String(repeating: "x", count: i % 8)
            var writer = JSONWriter()
            writer.beginArray()
            writer.string(prefix)
            writer.number(value)
            writer.endArray()
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "[\"\(prefix)\",\(value.description)]")
        }
    }
}

/// The members `testReadersRecordEveryProblemWithItsPointer` reads.

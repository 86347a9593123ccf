import Foundation
import TrellisAPI
@testable import TrellisSamples
import XCTest

/// Each feature's samples (Sources/TrellisAPI/<Feature>/samples.json): the Swift reader (the fuzz target's) and the
/// Python one (scripts/trellis_samples.py: the seeds and bench/cost.py) expand them alike, and a recipe grows with the
/// size it is asked for.
final class FeatureSamplesTests: XCTestCase {
    static let corpus = SampleSet.repository + "/fuzz/corpus"

    /// The seeds scripts/fuzz-seeds.py wrote from the samples are what this reader makes of them: each sample at the
    /// seed size with salt 0, as Python writes JSON (a difference is a recipe the two readers expand differently,
    /// or seeds not written again since the samples changed: `make fuzz-seeds`).
    func testEverySampleIsItsFuzzSeed() throws {
        let samples = try SampleSet.load()
        var compared = 0
        for path in samples.paths + [SampleSet.batchPath] {
            XCTAssertFalse(samples.of(path).isEmpty, "\(path) has no samples")
            for sample in samples.of(path) {
                let body = try samples.body(sample, size: SampleSet.small, salt: 0, style: .python)
                let file = "\(Self.corpus)/\(Features.shortName(of: path))/\(sample.name).json"
                let seed = FileManager.default.contents(atPath: file).map { [UInt8]($0) }
                if body.count > 16 << 10 {
                    XCTAssertNil(seed, "\(file): a seed past 16 KiB (make fuzz-seeds leaves it out)")
                    continue
                }
                XCTAssertEqual(seed.map { String(decoding: $0, as: UTF8.self) }, String(decoding: body, as: UTF8.self),
                               "\(file) is not what \(sample.folder)/samples.json's \(sample.name) expands to (make fuzz-seeds)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 60)
    }

    /// The normal request the fuzz target measures against: one per path, about the size asked for (small and
    /// large), different for every salt where a cache could remember it.
    func testEachPathHasOneFuzzerNormalThatGrowsWithItsSize() throws {
        let samples = try SampleSet.load()
        for path in samples.paths + [SampleSet.batchPath] {
            let normal = try samples.fuzzerNormal(for: path)
            XCTAssertEqual(normal.kind, .normal)
            let small = try samples.body(normal, size: SampleSet.small, salt: 3).count
            let large = try samples.body(normal, size: SampleSet.large, salt: 3).count
            XCTAssertLessThanOrEqual(small, 4096, "\(path)'s small normal request")
            XCTAssertTrue((SampleSet.large / 2...SampleSet.large * 3 / 2).contains(large), "\(path)'s normal request at \(SampleSet.large) bytes has \(large)")
            XCTAssertGreaterThan(large, 4 * small, path)
        }
        XCTAssertThrowsError(try samples.fuzzerNormal(for: "/v1/unknown")) { error in
            XCTAssertTrue("\(error)".contains("/v1/unknown has 0 normal samples"), "\(error)")
        }
    }

    /// The recipes' language: Python's meaning for its operators, and the errors a recipe can make.
    func testExpressionsMeanWhatPythonMeans() throws {
        func expand(_ expression: String) throws -> SampleValue {
            let file = #"{"paths": ["/x"], "samples": [{"name": "a", "kind": "edge", "recipe": "=\#(expression)"}]}"#
            let samples = try SampleSet(files: [("X", Array(file.utf8))])
            return try samples.value(samples.samples[0], size: 100, salt: 2)
        }
        XCTAssertEqual(try expand("-7 // 2"), .int(-4))
        XCTAssertEqual(try expand("-7 % 3"), .int(2))
        XCTAssertEqual(try expand("7 / 2"), .double(3.5))
        XCTAssertEqual(try expand("1 + 2 * 3 - (4 >> 1) | 8"), .int(13))
        XCTAssertEqual(try expand("size // 7 if size > 99 else None"), .int(14))
        XCTAssertEqual(try expand("'ab' * 2 + str(salt) + chr(0x263A)"), .string("abab2☺"))
        XCTAssertEqual(try expand("[1, 'x'][-1]"), .string("x"))
        XCTAssertEqual(try expand("0 or '' or 'z'"), .string("z"))
        XCTAssertEqual(try expand("min(3, 1.5, 2)"), .double(1.5))
        XCTAssertEqual(try expand("zpad(42, 5) + pad('é', 3) + '|'"), .string("00042é  |"))
        XCTAssertEqual(try expand("bits(5, 4, '1', '0')"), .string("1010"))
        XCTAssertEqual(try expand("scalar_run(0xD800 - 0xA0 - 1, 2)"), .string("\u{D7FF}\u{E000}"))
        XCTAssertEqual(try expand("words(2, 1)"), .array([.string("elruruor2"), .string("posaloel3")]))
        XCTAssertEqual(try expand("prose(['ab', 'c', 'def'], 14, 3)"), .string("cababcabc cabc"))
        XCTAssertEqual(try expand("letters(0x0E01, 46, 5, 7)"), .string("ฉฝธชฝ"))
        // A file's shared names are seen by every file's recipes; its lets by its own.
        let sharing = #"{"paths": ["/a"], "shared": {"vocabulary": ["x", "y"]}, "let": {"own": 1}, "samples": []}"#
        let using = #"{"paths": ["/b"], "samples": [{"name": "b", "kind": "edge", "fonts": ["F.ttf"], "recipe": "=vocabulary[1]"},"#
            + #"{"name": "c", "kind": "edge", "recipe": "=own"}]}"#
        let both = try SampleSet(files: [("A", Array(sharing.utf8)), ("B", Array(using.utf8))])
        XCTAssertEqual(try both.value(both.samples[0], size: 1, salt: 0), .string("y"))
        XCTAssertEqual(both.samples[0].fonts, ["F.ttf"])
        XCTAssertThrowsError(try both.value(both.samples[1], size: 1, salt: 0))
        XCTAssertThrowsError(try SampleSet(files: [("A", Array(sharing.utf8)), ("C", Array(sharing.utf8))]))
        for bad in ["a.b", "x[1:2]", "1 < 2 < 3", "open('x')", "'\\\\n'", "undefined", "len(1)", "1 // 0"] {
            XCTAssertThrowsError(try expand(bad), bad)
        }
    }
}

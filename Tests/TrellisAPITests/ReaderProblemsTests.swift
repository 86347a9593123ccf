import XCTest
@testable import TrellisAPI
@testable import TrellisJSON

/// The readers the API builds on TrellisJSON (enum values through WireNamed) and the problem+json they end in.
final class ReaderProblemsTests: XCTestCase {
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

    func testReadersRecordEveryProblemWithItsPointer() throws {
        try withJSON(#"{"n":-1,"i":1.5,"b":"yes","e":"diagonal","arr":{},"big":[1,2,3]}"#) { root in
            var problems = Problems()
            enum Direction: CaseIterable, WireNamed {
                case ltr, rtl
                var wireName: String { self == .ltr ? "ltr" : "rtl" }
            }
            let members = root.fields(ReaderMember.self)
            XCTAssertNil(members.required(ReaderMember.n, &problems)?.number(&problems, .nonNegative))
            XCTAssertNil(members.required(ReaderMember.i, &problems)?.integer(&problems, min: 0))
            XCTAssertNil(members.required(ReaderMember.b, &problems)?.boolean(&problems))
            XCTAssertNil(members.required(ReaderMember.e, &problems)?.oneOf(Direction.self, &problems))
            XCTAssertNil(members.required(ReaderMember.arr, &problems)?.array(&problems))
            XCTAssertNil(members.required(ReaderMember.big, &problems)?.array(&problems, maxCount: 2))
            XCTAssertNil(members.required(ReaderMember.absent, &problems))
            XCTAssertEqual(problems.list, [
                Problem(pointer: "/n", detail: "must be a finite number ≥ 0"),
                Problem(pointer: "/i", detail: "must be an integer within 0...9223372036854775807"),
                Problem(pointer: "/b", detail: "must be true or false"),
                Problem(pointer: "/e", detail: #"must be one of "ltr", "rtl""#),
                Problem(pointer: "/arr", detail: "must be an array"),
                Problem(pointer: "/big", detail: "must have at most 2 elements"),
                Problem(pointer: "/absent", detail: "is required"),
            ])
        }
    }

    func testAValidationProblemSaysHowManyThereWereAndHowManyAreListed() {
        var problems = Problems()
        for i in 0..<150 { problems.add(pointer: "/\(i)", "bad") }
        XCTAssertEqual(ProblemDetails.validation(problems).detail, "The request body has 150 problems; see errors (the first 100 are listed).")
    }
}

private enum ReaderMember: Int, JSONMember {
    case n, i, b, e, arr, big, absent
    static let keys = JSONKeys(ReaderMember.self)
}

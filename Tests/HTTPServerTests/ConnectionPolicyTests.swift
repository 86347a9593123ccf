import HTTPServer
import TrellisHTTP
import XCTest

/// The connection policy on facts alone: every rule, in its order of precedence.
final class ConnectionPolicyTests: XCTestCase {
    private let policy = ConnectionPolicy(maxConnections: 2, maxBodyBytes: 1000)

    private func facts(_ change: (inout RequestFacts) -> Void) -> RequestFacts {
        var facts = RequestFacts()
        change(&facts)
        return facts
    }

    func testAnOrdinaryHeadIsAdmitted() {
        XCTAssertNil(policy.admit(RequestFacts()))
        XCTAssertNil(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 1000 }))
        XCTAssertNil(policy.admit(facts { $0.transferEncodings = 1; $0.chunked = true }))
    }

    func testEachRuleRefusesWithItsReason() {
        XCTAssertEqual(policy.admit(facts { $0.openConnections = 3 }), .overloaded)
        XCTAssertEqual(policy.admit(facts { $0.nulInTarget = true }), .nulInTarget)
        XCTAssertEqual(policy.admit(facts { $0.malformedHead = true }), .malformedHead)
        XCTAssertEqual(policy.admit(facts { $0.transferEncodings = 1 }), .unsupportedTransferEncoding)
        XCTAssertEqual(policy.admit(facts { $0.transferEncodings = 2; $0.chunked = true }), .unsupportedTransferEncoding)
        XCTAssertEqual(policy.admit(facts { $0.contentLengths = 2; $0.conflictingLengths = true; $0.declaredLength = 1 }), .ambiguousLength)
        XCTAssertEqual(
            policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 1; $0.transferEncodings = 1; $0.chunked = true }),
            .ambiguousLength)
        XCTAssertEqual(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 1001 }), .bodyTooLarge(limit: 1000))
        XCTAssertEqual(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = nil }), .bodyTooLarge(limit: 1000))
        XCTAssertEqual(policy.admit(facts { $0.targetInvalid = true }), .badTarget)
        XCTAssertEqual(policy.admit(facts { $0.hostFields = 2 }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.hostInvalid = true }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.hostFields = 0 }), .badHost)
    }

    /// RFC 9112 §3.2: HTTP/1.1 needs exactly one Host; HTTP/1.0 may have none, never two.
    func testHostIsOptionalOnlyInHTTP10() {
        XCTAssertNil(policy.admit(facts { $0.hostRequired = false; $0.hostFields = 0 }))
        XCTAssertEqual(policy.admit(facts { $0.hostRequired = false; $0.hostFields = 2 }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.hostRequired = false; $0.hostInvalid = true }), .badHost)
    }

    func testOverloadComesFirstAndSmugglingBeforeFraming() {
        XCTAssertEqual(policy.admit(facts { $0.openConnections = 3; $0.malformedHead = true; $0.transferEncodings = 1 }), .overloaded)
        XCTAssertEqual(policy.admit(facts { $0.nulInTarget = true; $0.malformedHead = true }), .nulInTarget)
        XCTAssertEqual(policy.admit(facts { $0.malformedHead = true; $0.transferEncodings = 1 }), .malformedHead)
    }

    func testADeclaredBodyPastTheMemoryBudgetIsRefusedBeforeItIsRead() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1064))
        let policy = ConnectionPolicy(maxConnections: 2, maxBodyBytes: 1000, memoryBudget: budget)
        XCTAssertNil(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 1000 }), "1000 + 64 bytes of padding fit")
        XCTAssertTrue(budget.reserve(1))
        XCTAssertEqual(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 1000 }), .memoryExhausted)
        XCTAssertNil(policy.admit(facts { $0.contentLengths = 1; $0.declaredLength = 0 }), "an empty body needs no memory")
        XCTAssertEqual(budget.refusals, 1)
    }
}

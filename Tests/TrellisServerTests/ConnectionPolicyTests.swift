import CMicroHTTPDShim
import TrellisServer
import TrellisHTTP
import XCTest

/// The connection policy on facts alone: every rule, in its order of precedence.
final class ConnectionPolicyTests: XCTestCase {
    private let policy = ConnectionPolicy(maxConnections: 2, maxBodyBytes: 1000)

    /// An ordinary HTTP/1.1 head (one connection, one valid Host, no body), then `change`.
    private func facts(_ change: (inout tmhd_facts) -> Void = { _ in }) -> tmhd_facts {
        var facts = tmhd_facts()
        facts.open_connections = 1
        facts.host_fields = 1
        facts.host_required = 1
        change(&facts)
        return facts
    }

    func testAnOrdinaryHeadIsAdmitted() {
        XCTAssertNil(policy.admit(facts()))
        XCTAssertNil(policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 1000 }))
        XCTAssertNil(policy.admit(facts { $0.transfer_encodings = 1; $0.chunked = 1 }))
    }

    func testEachRuleRefusesWithItsReason() {
        XCTAssertEqual(policy.admit(facts { $0.open_connections = 3 }), .overloaded)
        XCTAssertEqual(policy.admit(facts { $0.nul_in_target = 1 }), .nulInTarget)
        XCTAssertEqual(policy.admit(facts { $0.malformed_head = 1 }), .malformedHead)
        XCTAssertEqual(policy.admit(facts { $0.transfer_encodings = 1 }), .unsupportedTransferEncoding)
        XCTAssertEqual(policy.admit(facts { $0.transfer_encodings = 2; $0.chunked = 1 }), .unsupportedTransferEncoding)
        XCTAssertEqual(policy.admit(facts { $0.content_lengths = 2; $0.conflicting_lengths = 1; $0.declared_length = 1 }), .ambiguousLength)
        XCTAssertEqual(
            policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 1; $0.transfer_encodings = 1; $0.chunked = 1 }),
            .ambiguousLength)
        XCTAssertEqual(policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 1001 }), .bodyTooLarge(limit: 1000))
        XCTAssertEqual(policy.admit(facts { $0.content_lengths = 1; $0.length_overflows = 1 }), .bodyTooLarge(limit: 1000))
        XCTAssertEqual(policy.admit(facts { $0.target_invalid = 1 }), .badTarget)
        XCTAssertEqual(policy.admit(facts { $0.host_fields = 2 }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.host_invalid = 1 }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.host_fields = 0 }), .badHost)
    }

    /// RFC 9112 §3.2: HTTP/1.1 needs exactly one Host; HTTP/1.0 may have none, never two.
    func testHostIsOptionalOnlyInHTTP10() {
        XCTAssertNil(policy.admit(facts { $0.host_required = 0; $0.host_fields = 0 }))
        XCTAssertEqual(policy.admit(facts { $0.host_required = 0; $0.host_fields = 2 }), .badHost)
        XCTAssertEqual(policy.admit(facts { $0.host_required = 0; $0.host_invalid = 1 }), .badHost)
    }

    func testOverloadComesFirstAndSmugglingBeforeFraming() {
        XCTAssertEqual(policy.admit(facts { $0.open_connections = 3; $0.malformed_head = 1; $0.transfer_encodings = 1 }), .overloaded)
        XCTAssertEqual(policy.admit(facts { $0.nul_in_target = 1; $0.malformed_head = 1 }), .nulInTarget)
        XCTAssertEqual(policy.admit(facts { $0.malformed_head = 1; $0.transfer_encodings = 1 }), .malformedHead)
    }

    func testADeclaredBodyPastTheMemoryBudgetIsRefusedBeforeItIsRead() throws {
        let budget = try XCTUnwrap(HTTPMemoryBudget(limit: 1000 + ConnectionPolicy.bodyPadding))
        let policy = ConnectionPolicy(maxConnections: 2, maxBodyBytes: 1000, memoryBudget: budget)
        XCTAssertNil(policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 1000 }), "1000 bytes and their padding fit")
        XCTAssertTrue(budget.reserve(1))
        XCTAssertEqual(policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 1000 }), .memoryExhausted)
        XCTAssertNil(policy.admit(facts { $0.content_lengths = 1; $0.declared_length = 0 }), "an empty body needs no memory")
        XCTAssertEqual(budget.refusals, 1)
    }

    /// One mapping both ways: each rejection has its own number, never TMHD_REJECT_NONE's, and comes back as itself.
    func testEachRejectionRoundTripsThroughItsShimNumber() {
        let all: [HTTPRejection] = [
            .bodyTooLarge(limit: 1000), .overloaded, .unsupportedTransferEncoding, .ambiguousLength, .memoryExhausted,
            .malformedHead, .nulInTarget, .badHost, .badTarget, .bodyDelayed,
        ]
        XCTAssertEqual(Set(all.map(\.code.rawValue)).count, all.count)
        for rejection in all {
            XCTAssertNotEqual(rejection.code, TMHD_REJECT_NONE)
            XCTAssertEqual(HTTPRejection(rejection.code, bodyLimit: 1000), rejection)
        }
        XCTAssertNil(HTTPRejection(TMHD_REJECT_NONE, bodyLimit: 1000))
    }
}

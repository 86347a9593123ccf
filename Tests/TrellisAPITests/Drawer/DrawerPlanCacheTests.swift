@testable import TrellisAPI
import TrellisCore
import TrellisJSON
import XCTest

/// The drawer keeps recent motions' plans and written members: a kept plan must answer exactly
/// what planning afresh answers, and the cache must stay within its bounds.
final class DrawerPlanCacheTests: XCTestCase {
    /// Requests whose motions differ in spring, frame rate and start, each asked twice.
    private let requests = [
        drawerSeedRequest,
        #"{"isPresented": true, "action": "toggle", "container": {"width": 390, "height": 844}}"#,
        #"{"isPresented": false, "action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": 120}"#,
        #"{"isPresented": false, "action": "toggle", "container": {"width": 800, "height": 600}, "spring": {"response": 0.3, "dampingFraction": 1.4}}"#,
        #"{"isPresented": false, "action": "toggle", "container": {"width": 390, "height": 844}, "spring": {"response": 0.9, "dampingFraction": 0.3}, "frameRate": 30}"#,
        #"{"isPresented": true, "action": "toggle", "container": {"width": 390, "height": 844}, "from": {"x": -40, "velocity": -900}}"#,
    ]

    func testAKeptPlanAnswersTheSameBytesAsPlanningAfresh() throws {
        for body in requests {
            let fresh = try answerPlannedAfresh(body)
            let first = postDrawer(body)
            let second = postDrawer(body)
            XCTAssertEqual(first.status, 200, first.text)
            XCTAssertEqual(first.text, fresh, body)
            XCTAssertEqual(second.text, fresh, body)
        }
    }

    func testTheCacheKeepsAtMostItsCapacity() {
        let cache = DrawerPlanCache(capacity: 8)
        for i in 0..<50 {
            let spring = DrawerSpring(response: 0.3 + Double(i) / 100, dampingFraction: 0.8)
            let kept = cache.entry(DrawerSpringMotion(spring: spring), frameRate: 60, maxWork: .max)
            XCTAssertNotNil(kept.fragment)
            XCTAssertLessThanOrEqual(cache.count, 8)
        }
        XCTAssertEqual(cache.count, 8)
    }

    func testARefusedMotionIsKeptWithoutMembers() {
        let cache = DrawerPlanCache(capacity: 8)
        let slow = DrawerSpringMotion(spring: DrawerSpring(response: 600, dampingFraction: 0.01))
        let entry = cache.entry(slow, frameRate: 60, maxWork: .max)
        XCTAssertEqual(entry.plan, .failure(.settlesTooLate))
        XCTAssertNil(entry.fragment)
    }

    func testAKeptPlanIsRefusedWhereTheRequestAllowsLessWork() throws {
        let cache = DrawerPlanCache(capacity: 8)
        let slow = DrawerSpringMotion(spring: DrawerSpring(response: 0.5, dampingFraction: 0.05))
        let planned = try cache.entry(slow, frameRate: 240, maxWork: .max).plan.get()
        XCTAssertEqual(cache.count, 1)
        // Too little for its easing's samples, then for its keyframes alone.
        let refused = cache.entry(slow, frameRate: 240, maxWork: planned.work - 1)
        XCTAssertEqual(refused.plan, DrawerMotionPlan.make(slow, frameRate: 240, maxWork: planned.work - 1))
        XCTAssertEqual(refused.plan, .failure(.tooManySamples(allowed: planned.work - 1 - planned.keyframes.count)))
        XCTAssertNil(refused.fragment)
        let fewer = cache.entry(slow, frameRate: 240, maxWork: planned.keyframes.count - 1)
        XCTAssertEqual(fewer.plan, .failure(.tooManyKeyframes(needed: planned.keyframes.count, allowed: planned.keyframes.count - 1)))
        // A refusal for work depends on the request: it is not kept.
        let other = DrawerSpringMotion(spring: DrawerSpring(response: 0.6, dampingFraction: 0.05))
        _ = cache.entry(other, frameRate: 240, maxWork: 10)
        XCTAssertEqual(cache.count, 1)
        XCTAssertNotNil(try cache.entry(other, frameRate: 240, maxWork: .max).plan.get())
    }

    /// The answer written without the cache: the core plans the motion itself.
    private func answerPlannedAfresh(_ body: String) throws -> String {
        let bytes = Array(body.utf8)
        let document = try bytes.withUnsafeBytes { try JSONDocument.parse($0, padded: false).get() }
        var problems = Problems()
        let request = try XCTUnwrap(DrawerInput(reading: document.root, FeatureContext(), &problems))
        guard case .success(let result) = DrawerResolver.compute(request) else {
            XCTFail("refused: \(body)")
            return ""
        }
        var json = JSONWriter()
        DrawerStateResponse.write(result, to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

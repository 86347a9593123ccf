import Synchronization
import TrellisCore
import TrellisJSON

/// Plans of recent motions, each with its `keyframes` and `css` members already written: clients
/// send the default spring again and again, and planning and formatting are most of a toggle's cost.
///
/// Rule: bounded: at most `capacity` entries, a fragment only when it fits `maxFragmentBytes`, and
/// a full cache drops a random entry; keys hash with Swift's per-process seeded hasher.
final class DrawerPlanCache: Sendable {
    struct Key: Hashable, Sendable {
        let motion: DrawerSpringMotion
        let frameRate: Double
    }

    struct Entry: Sendable {
        let plan: Result<DrawerMotionPlan, DrawerLimitViolation>
        /// `"keyframes":[…],"css":{…}` as DrawerStateResponse writes them; nil for a refusal or a large plan.
        let fragment: [UInt8]?
    }

    static let maxFragmentBytes = 16 << 10
    /// `{"t":1,"progress":1}` and its comma: the least a keyframe takes in the fragment.
    static let minimumKeyframeBytes = 21
    let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { entries.withLock { $0.count } }

    /// The plan of `motion` at `frameRate` within `maxWork`: kept, or made, written and kept. The answer is
    /// the planner's whatever is kept: a kept plan past `maxWork` is planned again within it, and a refusal
    /// for work (which depends on `maxWork`) is never kept.
    func entry(_ motion: DrawerSpringMotion, frameRate: Double, maxWork: Int) -> Entry {
        let key = Key(motion: motion, frameRate: frameRate)
        if let kept = entries.withLock({ $0[key] }) {
            if case .success(let plan) = kept.plan, plan.work > maxWork {
                return Entry(plan: DrawerMotionPlan.make(motion, frameRate: frameRate, maxWork: maxWork), fragment: nil)
            }
            return kept
        }
        let plan = DrawerMotionPlan.make(motion, frameRate: frameRate, maxWork: maxWork)
        switch plan {
        case .failure(.tooManyKeyframes), .failure(.tooManySamples): return Entry(plan: plan, fragment: nil)
        default: break
        }
        var fragment: [UInt8]?
        // A keyframe takes at least `minimumKeyframeBytes`: a plan with more than fit is not written twice to find out.
        if case .success(let made) = plan, made.keyframes.count * Self.minimumKeyframeBytes <= Self.maxFragmentBytes {
            var json = JSONWriter(capacity: 1024, limit: Self.maxFragmentBytes)
            json.beginObject()
            DrawerStateResponse.writeMotion(made, to: &json)
            json.endObject()
            // The members without the braces around them.
            if json.failure == nil { fragment = Array(json.bytes.dropFirst().dropLast()) }
        }
        let entry = Entry(plan: plan, fragment: fragment)
        entries.withLock { kept in
            if kept.count >= capacity, let victim = kept.keys.randomElement() { kept.removeValue(forKey: victim) }
            kept[key] = entry
        }
        return entry
    }
}

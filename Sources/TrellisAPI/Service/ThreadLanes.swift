import Dispatch
import Synchronization
import TrellisText

/// Lanes on the process's threads: a computation borrows idle threads (libdispatch's, one per core) for its other lanes,
/// at most `spare` borrowed at once across every request, so that a large list is laid out on the idle cores while a
/// busy server lays each request out on its own thread. Threads are borrowed for the call and given back when it
/// returns.
public final class ThreadLanes: ComputeLanes {
    /// Threads every request together may borrow at once.
    public let spare: Int
    private let borrowed = Atomic<Int>(0)

    public init(spare: Int) {
        self.spare = max(0, spare)
    }

    public func run(_ wanted: Int, _ body: (_ lane: Int, _ lanes: Int) -> Void) {
        let extra = borrow(wanted - 1)
        defer { if extra > 0 { borrowed.subtract(extra, ordering: .relaxed) } }
        guard extra > 0 else {
            body(0, 1)
            return
        }
        let lanes = extra + 1
        // (concurrentPerform runs one iteration on this thread and the others on its pool's, and returns once all have:
        // `body` does not outlive the call, and each lane touches its own part of what it captures, as `run` promises.)
        withoutActuallyEscaping(body) { body in
            let shared = SharedBody(body: body)
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in shared.body(lane, lanes) }
        }
    }

    /// The lanes' body, which `run`'s callers make safe to call on several threads at once.
    private struct SharedBody: @unchecked Sendable {
        let body: (_ lane: Int, _ lanes: Int) -> Void
    }

    /// Takes up to `wanted` of the spare threads; how many it took.
    private func borrow(_ wanted: Int) -> Int {
        guard wanted > 0 else { return 0 }
        var current = borrowed.load(ordering: .relaxed)
        while true {
            let taking = min(wanted, spare - current)
            guard taking > 0 else { return 0 }
            let (exchanged, original) = borrowed.compareExchange(expected: current, desired: current + taking, ordering: .relaxed)
            if exchanged { return taking }
            current = original
        }
    }
}

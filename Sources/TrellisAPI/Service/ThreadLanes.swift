import Dispatch
import Synchronization
import TrellisText

/// Lanes on the process's threads: a computation borrows idle threads (libdispatch's, one per core) for its parts, at
/// most `spare` borrowed at once across every request, so that a large list is laid out on the idle cores while a busy
/// server lays each request out on its own thread. Threads are borrowed for the call (as many as there are parts
/// besides the first, when free) and given back when it returns.
public final class ThreadLanes: ComputeLanes {
    /// Threads every request together may borrow at once.
    public let spare: Int
    private let borrowed = Atomic<Int>(0)

    public init(spare: Int) {
        self.spare = max(0, spare)
    }

    public func run(_ parts: Int, _ body: (_ part: Int) -> Void) -> Bool {
        guard parts > 1 else { return false }
        let extra = borrow(parts - 1)
        guard extra > 0 else { return false }
        defer { borrowed.subtract(extra, ordering: .relaxed) }
        // (concurrentPerform runs one iteration on this thread and the others on its pool's, and returns once all have:
        // `body` does not outlive the call, and each part touches its own part of what it captures, as `run` promises.)
        let next = PartCounter()
        withoutActuallyEscaping(body) { body in
            let shared = SharedBody(body: body)
            DispatchQueue.concurrentPerform(iterations: extra + 1) { _ in
                while true {
                    let part = next.taken.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard part < parts else { return }
                    shared.body(part)
                }
            }
        }
        return true
    }

    /// The parts taken so far: each thread takes the next one.
    private final class PartCounter: Sendable {
        let taken = Atomic<Int>(0)
    }

    /// The parts' body, which `run`'s callers make safe to call on several threads at once.
    private struct SharedBody: @unchecked Sendable {
        let body: (_ part: Int) -> Void
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

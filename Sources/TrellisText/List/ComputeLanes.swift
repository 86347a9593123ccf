/// Threads a computation may spread its independent parts over, handed in by the caller: this library makes none.
public protocol ComputeLanes: Sendable {
    /// Runs `body(lane, lanes)` once for each of `lanes` lanes, at most `wanted` and at least one, the first on the
    /// caller's thread and each other on a thread of its own at the same time, and returns once every one has
    /// returned. `lanes` is as many as the caller may borrow threads for now: one when none is free.
    func run(_ wanted: Int, _ body: (_ lane: Int, _ lanes: Int) -> Void)
}

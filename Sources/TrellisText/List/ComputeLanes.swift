/// Threads a computation may spread its independent parts over, handed in by the caller: this library makes none.
public protocol ComputeLanes: Sendable {
    /// Runs `body(part)` once for each of `parts` parts, on the caller's thread and on the threads it may borrow now, at
    /// the same time, each thread taking the next part not yet taken, and returns true once every part has returned;
    /// false, having run none, when no thread is free to borrow.
    func run(_ parts: Int, _ body: (_ part: Int) -> Void) -> Bool
}

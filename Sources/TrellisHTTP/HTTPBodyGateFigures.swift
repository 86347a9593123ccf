/// What the transport's body gate has done so far (large bodies read a few per worker thread at a
/// time; the others wait): for the metrics.
public struct HTTPBodyGateFigures: Sendable, Equatable {
    /// Bodies waiting for a place now.
    public var waiting = 0
    /// Waits that ended (a place taken, refused, or the connection gone), and their total time.
    public var waits = 0
    public var waited: Duration = .zero
    /// Bodies refused with 503: the queue was full, or the wait ran out.
    public var refused = 0

    public init(waiting: Int = 0, waits: Int = 0, waited: Duration = .zero, refused: Int = 0) {
        self.waiting = waiting
        self.waits = waits
        self.waited = waited
        self.refused = refused
    }
}

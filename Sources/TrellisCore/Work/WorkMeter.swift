/// The steps a computation takes, counted as it goes, and the caller's say in whether it may go on.
///
/// The core reads no clock: a caller with a deadline hands in a check, which the meter runs once every
/// `interval` steps; once the check says stop, every later `advance` is false and the computation
/// returns at once (its result is then incomplete and is not used). The count is the cost model's unit:
/// each loop that grows with the input advances it by the work it does.
public struct WorkMeter {
    /// The size of the input being computed on (a request's body bytes): limits in proportion to the
    /// input read it.
    public private(set) var inputBytes: Int
    /// Steps counted so far.
    public var steps: Int { counted }
    /// True once the check has said stop.
    public private(set) var isStopped = false
    @usableFromInline var counted = 0
    @usableFromInline var nextCheck: Int
    private let interval: Int
    private let shouldStop: (() -> Bool)?

    /// A meter that only counts, for an input of `inputBytes`.
    public init(inputBytes: Int = 0) {
        self.inputBytes = inputBytes
        interval = .max
        nextCheck = .max
        shouldStop = nil
    }

    /// A meter that asks `shouldStop` every `interval` steps (at least 1).
    public init(inputBytes: Int = 0, checkingEvery interval: Int = 4096, stopWhen shouldStop: @escaping () -> Bool) {
        self.inputBytes = inputBytes
        self.interval = max(1, interval)
        nextCheck = self.interval
        self.shouldStop = shouldStop
    }

    /// A meter for another computation, on an input of `inputBytes`, that asks the same check as this one (one
    /// deadline for several computations).
    public func restarted(inputBytes: Int) -> WorkMeter {
        guard let shouldStop else { return WorkMeter(inputBytes: inputBytes) }
        return WorkMeter(inputBytes: inputBytes, checkingEvery: interval, stopWhen: shouldStop)
    }

    /// This meter, its steps and check as they are, for an input of `inputBytes` (a request that names an input kept
    /// from an earlier one is bounded as that input).
    public func measuring(inputBytes: Int) -> WorkMeter {
        var meter = self
        meter.inputBytes = inputBytes
        return meter
    }

    /// Counts `count` more steps; false once the computation must stop.
    @inlinable @inline(__always)
    public mutating func advance(_ count: Int = 1) -> Bool {
        counted &+= count
        return counted < nextCheck || check()
    }

    @usableFromInline mutating func check() -> Bool {
        if isStopped { return false }
        if let shouldStop, shouldStop() {
            isStopped = true
            nextCheck = .min
            return false
        }
        let (next, overflow) = counted.addingReportingOverflow(interval)
        nextCheck = overflow ? .max : next
        return true
    }
}

import TrellisHTTP
import Synchronization

/// Prometheus metrics kept in atomics only, so workers never wait on each other.
public final class Metrics: @unchecked Sendable {
    // @unchecked: the buffers below are written once in init and then only through atomics.
    static let statuses = [200, 204, 304, 400, 404, 405, 413, 415, 422, 500, 503]
    static let methods = ["GET", "HEAD", "POST", "OPTIONS"]
    /// Upper bounds of the duration histogram, in seconds.
    static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    /// Route names; the last one stands for every unknown path.
    let routes: [String]
    private let requests: AtomicCounters
    private let durationBuckets: AtomicCounters
    private let durationSumMicros: AtomicCounters
    private let steps: AtomicCounters
    let inFlight = Atomic<Int>(0)
    let requestBytes = Atomic<Int>(0)
    let responseBytes = Atomic<Int>(0)
    /// Shown as gauges: its limit, the bytes in use and the reservations it refused.
    let memoryBudget: HTTPMemoryBudget?
    /// The lists' shaping cache and the kept lists, shown as gauges: what each keeps of the memory budget.
    let context: FeatureContext?
    /// The transport's body gate, read when the metrics are (set once the server has started).
    private let bodyGate = PosixLocked<(@Sendable () -> HTTPBodyGateFigures)?>(nil)

    /// The metrics show the body gate's figures as `read` gives them.
    public func observeBodyGate(_ read: @escaping @Sendable () -> HTTPBodyGateFigures) {
        bodyGate.withLock { $0 = read }
    }

    public init(routes: [String], memoryBudget: HTTPMemoryBudget? = nil, context: FeatureContext? = nil) {
        self.memoryBudget = memoryBudget
        self.context = context
        self.routes = routes + ["unmatched"]
        let r = self.routes.count
        requests = AtomicCounters(count: r * (Self.methods.count + 1) * (Self.statuses.count + 1))
        durationBuckets = AtomicCounters(count: r * (Self.buckets.count + 1))
        durationSumMicros = AtomicCounters(count: r)
        steps = AtomicCounters(count: r)
    }

    var unmatchedRoute: Int { routes.count - 1 }

    func record(
        route: Int, method: String, status: Int, micros: Int, bytesIn: Int, bytesOut: Int, steps: Int = 0, countsBytes: Bool = true
    ) {
        let m = Self.methods.firstIndex(of: method) ?? Self.methods.count
        let s = Self.statuses.firstIndex(of: status) ?? Self.statuses.count
        requests.add(1, at: (route * (Self.methods.count + 1) + m) * (Self.statuses.count + 1) + s)
        let seconds = Double(micros) / 1e6
        let b = Self.buckets.firstIndex { seconds <= $0 } ?? Self.buckets.count
        durationBuckets.add(1, at: route * (Self.buckets.count + 1) + b)
        durationSumMicros.add(micros, at: route)
        if steps > 0 { self.steps.add(steps, at: route) }
        guard countsBytes else { return }
        requestBytes.wrappingAdd(bytesIn, ordering: .relaxed)
        responseBytes.wrappingAdd(bytesOut, ordering: .relaxed)
    }

    /// The Prometheus text exposition format, version 0.0.4.
    public func exposition() -> String {
        var out = "# HELP trellis_requests_total Requests answered, by route, method and status.\n"
        out += "# TYPE trellis_requests_total counter\n"
        for (r, route) in routes.enumerated() {
            for m in 0...Self.methods.count {
                for s in 0...Self.statuses.count {
                    let n = requests.load(at: (r * (Self.methods.count + 1) + m) * (Self.statuses.count + 1) + s)
                    guard n > 0 else { continue }
                    let method = m < Self.methods.count ? Self.methods[m] : "other"
                    let status = s < Self.statuses.count ? String(Self.statuses[s]) : "other"
                    out += "trellis_requests_total{route=\"\(route)\",method=\"\(method)\",status=\"\(status)\"} \(n)\n"
                }
            }
        }
        out += "# HELP trellis_request_duration_seconds Time from a complete request to its answer, by route.\n"
        out += "# TYPE trellis_request_duration_seconds histogram\n"
        for (r, route) in routes.enumerated() {
            var cumulative = 0
            for b in 0...Self.buckets.count {
                cumulative += durationBuckets.load(at: r * (Self.buckets.count + 1) + b)
                let le = b < Self.buckets.count ? Self.buckets[b].description : "+Inf"
                out += "trellis_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(le)\"} \(cumulative)\n"
            }
            out += "trellis_request_duration_seconds_sum{route=\"\(route)\"} \(Double(durationSumMicros.load(at: r)) / 1e6)\n"
            out += "trellis_request_duration_seconds_count{route=\"\(route)\"} \(cumulative)\n"
        }
        out += "# HELP trellis_compute_steps_total Steps of computation counted by the endpoints (the cost model's unit: see docs/limits.md), by route.\n"
        out += "# TYPE trellis_compute_steps_total counter\n"
        for (r, route) in routes.enumerated() where steps.load(at: r) > 0 {
            out += "trellis_compute_steps_total{route=\"\(route)\"} \(steps.load(at: r))\n"
        }
        out += "# HELP trellis_requests_in_flight Requests being handled now.\n# TYPE trellis_requests_in_flight gauge\n"
        out += "trellis_requests_in_flight \(inFlight.load(ordering: .relaxed))\n"
        out += "# HELP trellis_request_bytes_total Request body bytes received.\n# TYPE trellis_request_bytes_total counter\n"
        out += "trellis_request_bytes_total \(requestBytes.load(ordering: .relaxed))\n"
        out += "# HELP trellis_response_bytes_total Response body bytes sent.\n# TYPE trellis_response_bytes_total counter\n"
        out += "trellis_response_bytes_total \(responseBytes.load(ordering: .relaxed))\n"
        if let memoryBudget {
            out += "# HELP trellis_memory_budget_bytes The memory budget: request bodies being received plus answers not yet sent.\n"
            out += "# TYPE trellis_memory_budget_bytes gauge\ntrellis_memory_budget_bytes \(memoryBudget.limit)\n"
            out += "# HELP trellis_memory_in_use_bytes Bytes of the memory budget in use now.\n"
            out += "# TYPE trellis_memory_in_use_bytes gauge\ntrellis_memory_in_use_bytes \(memoryBudget.inUse)\n"
            out += "# HELP trellis_memory_refusals_total Bodies and answers refused because they would pass the budget.\n"
            out += "# TYPE trellis_memory_refusals_total counter\ntrellis_memory_refusals_total \(memoryBudget.refusals)\n"
        }
        if let context {
            let cache = context.shapingCache, lists = context.listStore
            out += "# HELP trellis_shaping_cache_bytes Bytes the lists' shaping cache keeps of the memory budget (at most its capacity).\n"
            out += "# TYPE trellis_shaping_cache_bytes gauge\ntrellis_shaping_cache_bytes \(cache.bytes)\n"
            out += "# HELP trellis_shaping_cache_capacity_bytes The most the lists' shaping cache keeps.\n"
            out += "# TYPE trellis_shaping_cache_capacity_bytes gauge\ntrellis_shaping_cache_capacity_bytes \(cache.byteCapacity)\n"
            out += "# HELP trellis_shaping_cache_paragraphs Paragraphs the lists' shaping cache keeps.\n"
            out += "# TYPE trellis_shaping_cache_paragraphs gauge\ntrellis_shaping_cache_paragraphs \(cache.count)\n"
            out += "# HELP trellis_kept_list_bytes Bytes the kept lists keep of the memory budget (at most their store's capacity).\n"
            out += "# TYPE trellis_kept_list_bytes gauge\ntrellis_kept_list_bytes \(lists.bytes)\n"
            out += "# HELP trellis_kept_list_capacity_bytes The most the kept lists keep.\n"
            out += "# TYPE trellis_kept_list_capacity_bytes gauge\ntrellis_kept_list_capacity_bytes \(lists.byteCapacity)\n"
            out += "# HELP trellis_kept_lists Lists kept for later requests that name them.\n"
            out += "# TYPE trellis_kept_lists gauge\ntrellis_kept_lists \(lists.count)\n"
        }
        if let read = bodyGate.withLock({ $0 }) {
            let gate = read()
            let waited = Double(gate.waited.components.seconds) + Double(gate.waited.components.attoseconds) / 1e18
            out += "# HELP trellis_body_gate_waiting Large request bodies waiting now for a place to be read (the body gate).\n"
            out += "# TYPE trellis_body_gate_waiting gauge\ntrellis_body_gate_waiting \(gate.waiting)\n"
            out += "# HELP trellis_body_gate_waits_total Waits at the body gate that ended (a place taken, refused, or the connection gone).\n"
            out += "# TYPE trellis_body_gate_waits_total counter\ntrellis_body_gate_waits_total \(gate.waits)\n"
            out += "# HELP trellis_body_gate_wait_seconds_total Time those waits took, in all.\n"
            out += "# TYPE trellis_body_gate_wait_seconds_total counter\ntrellis_body_gate_wait_seconds_total \(waited)\n"
            out += "# HELP trellis_body_gate_refusals_total Bodies refused with 503 at the body gate: its queue was full or the wait ran out.\n"
            out += "# TYPE trellis_body_gate_refusals_total counter\ntrellis_body_gate_refusals_total \(gate.refused)\n"
        }
        return out
    }
}

/// A fixed number of atomic counters.
final class AtomicCounters: @unchecked Sendable {
    // @unchecked: the storage is allocated once and only touched through Atomic operations.
    private let storage: UnsafeMutablePointer<Atomic<Int>>
    let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: count)
        for i in 0..<count { (storage + i).initialize(to: Atomic<Int>(0)) }
    }

    func add(_ n: Int, at i: Int) {
        storage[i].wrappingAdd(n, ordering: .relaxed)
    }

    func load(at i: Int) -> Int {
        storage[i].load(ordering: .relaxed)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}

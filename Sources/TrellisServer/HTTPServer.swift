import CMicroHTTPDShim
import Glibc
import TrellisHTTP

/// A small HTTP/1.1 server over libmicrohttpd. Handlers run synchronously on its worker threads.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (TrellisRequest) -> TrellisResponse

    public let configuration: HTTPServerConfiguration
    /// Request bodies and queued answers count against it (nil: unbounded).
    public let memoryBudget: HTTPMemoryBudget?
    private let handler: Handler
    private let state = PosixLocked<State>(State())

    private struct State {
        var running: Running?
        var port: Int = 0
    }

    /// A started daemon. libmicrohttpd's quiesce, info and stop calls are safe from any thread.
    private struct Running: @unchecked Sendable {
        let server: OpaquePointer
        let context: Unmanaged<HandlerBox>
    }

    public init(configuration: HTTPServerConfiguration, memoryBudget: HTTPMemoryBudget? = nil, handler: @escaping Handler) {
        self.configuration = configuration
        self.memoryBudget = memoryBudget
        self.handler = handler
    }

    /// Starts listening and serving; returns the bound port.
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        var bound: UInt16 = 0
        let host = configuration.host
        let port = configuration.port
        let fd = tmhd_listen(host, UInt16(clamping: port), &bound)
        if fd < 0 {
            if errno == EADDRINUSE { throw .addressInUse(host: host, port: port) }
            throw .cannotListen(host: host, port: port, errno: errno)
        }
        let policy = ConnectionPolicy(
            maxConnections: configuration.maxConnections, maxBodyBytes: configuration.maxBodyBytes, memoryBudget: memoryBudget)
        let box = Unmanaged.passRetained(HandlerBox(handler: handler, policy: policy))
        var options = tmhd_options(
            listen_fd: fd,
            threads: UInt32(clamping: configuration.threads),
            max_body_bytes: configuration.maxBodyBytes,
            max_connections: UInt32(clamping: configuration.maxConnections),
            connection_timeout: UInt32(clamping: configuration.connectionTimeout),
            header_timeout: UInt32(clamping: configuration.headerTimeout),
            body_timeout: UInt32(clamping: configuration.bodyTimeout),
            send_timeout: UInt32(clamping: configuration.sendTimeout),
            max_connections_per_ip: UInt32(clamping: configuration.maxConnectionsPerIP),
            connection_memory_limit: configuration.connectionMemoryLimit,
            leave_memory: configuration.managesMemory ? 0 : 1,
            gate: Self.gateOptions(configuration.bodyGate),
            keep_free_busy: configuration.keepFreeWhileBusy,
            keep_free_idle: configuration.keepFreeWhenIdle,
            budget: memoryBudget.map(Self.bridge) ?? tmhd_budget(),
            policy: { context, facts in
                guard let context, let facts else { return TMHD_REJECT_NONE }
                return Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().policy.admit(facts.pointee)?.code
                    ?? TMHD_REJECT_NONE
            },
            handler: { context, request, exchange in
                guard let context, let request, let exchange else { return }
                Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().serve(request, exchange)
            },
            context: box.toOpaque()
        )
        guard let server = tmhd_start(&options) else {
            let code = errno
            close(fd)
            box.release()
            throw .cannotStart(errno: code)
        }
        let running = Running(server: server, context: box)
        state.withLock {
            $0.running = running
            $0.port = Int(bound)
        }
        return Int(bound)
    }

    /// The bound port while running.
    public var port: Int { state.withLock { $0.port } }

    /// Stops accepting connections; requests already received go on.
    public func quiesce() {
        state.withLock { if let running = $0.running { tmhd_quiesce(running.server) } }
    }

    public var requestsInFlight: Int {
        state.withLock { $0.running.map { Int(tmhd_requests_in_flight($0.server)) } ?? 0 }
    }

    /// The heartbeat: how long the longest-running handler call in progress has run (zero when
    /// no worker is in the handler). A worker stuck on one request shows as a growing figure.
    public var longestBusyWorker: Duration {
        state.withLock { $0.running.map { .milliseconds(Int64(tmhd_longest_busy_ms($0.server))) } ?? .zero }
    }

    /// What the body gate has done so far (zero before the server starts).
    public var bodyGateFigures: HTTPBodyGateFigures {
        state.withLock {
            guard let running = $0.running else { return HTTPBodyGateFigures() }
            var figures = tmhd_gate_figures()
            tmhd_gate_figures_of(running.server, &figures)
            return HTTPBodyGateFigures(
                waiting: Int(figures.waiting), waits: Int(figures.waits), waited: .milliseconds(Int64(figures.waited_ms)),
                refused: Int(figures.refused))
        }
    }

    /// Rule: malloc's process-wide thresholds, for the process whose requests this server's memory
    /// rules assume (the executable calls it once, before serving): blocks up to 32 MiB (bodies, tapes,
    /// answers) come from malloc's arenas and are reused by the next requests, and a free shrinks an
    /// arena's top past 8 MiB (malloc_trim can't shrink a thread arena's top, so this bounds what each
    /// keeps; 4 MiB brought the page faults back at 1 MiB bodies). The server's watcher gives the rest back.
    public static func tuneProcessMemory(mmapThreshold: Int = 32 << 20, trimThreshold: Int = 8 << 20) {
        tmhd_tune_malloc(mmapThreshold, trimThreshold)
    }

    /// Closes every connection and joins the workers.
    public func stop() {
        let running = state.withLock { s -> Running? in
            defer { s.running = nil }
            return s.running
        }
        guard let running else { return }
        tmhd_stop(running.server)
        running.context.release()
    }

    deinit { stop() }

    private static func gateOptions(_ gate: HTTPServerConfiguration.BodyGate) -> tmhd_gate_options {
        func milliseconds(_ duration: Duration) -> UInt32 {
            UInt32(clamping: max(1, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
        }
        return tmhd_gate_options(
            from_bytes: max(1, gate.threshold), places: UInt32(clamping: max(1, gate.places)), queue: UInt32(clamping: max(1, gate.queue)),
            hold_ms: milliseconds(gate.maxHold), idle_ms: milliseconds(gate.idle), wait_ms: milliseconds(gate.maxWait))
    }

    /// The budget as the shim calls it (the server keeps the budget alive while it runs).
    private static func bridge(_ budget: HTTPMemoryBudget) -> tmhd_budget {
        tmhd_budget(
            context: Unmanaged.passUnretained(budget).toOpaque(),
            reserve: { context, bytes, force in
                guard let context else { return 1 }
                let budget = Unmanaged<HTTPMemoryBudget>.fromOpaque(context).takeUnretainedValue()
                if force != 0 {
                    budget.take(bytes)
                    return 1
                }
                return budget.reserve(bytes) ? 1 : 0
            },
            release: { context, bytes in
                guard let context else { return }
                Unmanaged<HTTPMemoryBudget>.fromOpaque(context).takeUnretainedValue().release(bytes)
            })
    }
}

/// The Swift side of the C callbacks: applies the policy to a head's facts, turns a tmhd_request
/// into a TrellisRequest and answers.
private final class HandlerBox: Sendable {
    let handler: HTTPServer.Handler
    let policy: ConnectionPolicy

    init(handler: @escaping HTTPServer.Handler, policy: ConnectionPolicy) {
        self.handler = handler
        self.policy = policy
    }

    func serve(_ raw: UnsafePointer<tmhd_request>, _ exchange: OpaquePointer) {
        let r = raw.pointee
        // Read in place: tmhd.c pins tmhd_header to HTTPReceivedField's layout.
        let received = TrellisHeaders(
            received: r.headers.map { UnsafeRawPointer($0).assumingMemoryBound(to: HTTPReceivedField.self) }, count: r.header_count)
        let request = TrellisRequest(
            method: String(cString: r.method),
            path: String(cString: r.path),
            headers: received,
            body: UnsafeRawBufferPointer(start: r.body, count: r.body_length),
            bodyPadding: ConnectionPolicy.bodyPadding,
            rejection: HTTPRejection(r.rejection, bodyLimit: policy.maxBodyBytes)
        )
        let response = handler(request)
        let fields = response.headers.fields.count
        // The fields go to the shim as one tmhd_header array with their text after it, on the stack.
        withUnsafeTemporaryAllocation(of: tmhd_header.self, capacity: Self.stackHeaderSlots) { space in
            if Self.pack(response.headers.fields, into: space) {
                Self.respond(exchange, response, headers: space.baseAddress, count: fields, budget: policy.memoryBudget)
                return
            }
            // More than fit: a temporary allocation of their exact size.
            let bytes = response.headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
            let stride = MemoryLayout<tmhd_header>.stride
            withUnsafeTemporaryAllocation(of: tmhd_header.self, capacity: fields + (bytes + stride - 1) / stride) { space in
                _ = Self.pack(response.headers.fields, into: space)
                Self.respond(exchange, response, headers: space.baseAddress, count: fields, budget: policy.memoryBudget)
            }
        }
    }

    /// tmhd_header slots on the stack for an answer's fields and their text (1 KiB): the usual few fit.
    private static let stackHeaderSlots = 64

    /// Writes `fields` into `space` as tmhd_header, with each name and value after them, ended by a NUL;
    /// false when they do not fit.
    @inline(__always)
    private static func pack(_ fields: [(name: String, value: String)], into space: UnsafeMutableBufferPointer<tmhd_header>) -> Bool {
        let count = fields.count
        guard count <= space.count else { return false }
        let chars = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(space)[(count * MemoryLayout<tmhd_header>.stride)...])
            .bindMemory(to: CChar.self)
        var at = 0
        @inline(__always) func put(_ text: String) -> UnsafePointer<CChar>? {
            var text = text
            let start = at
            let fits = text.withUTF8 { bytes in
                guard bytes.count < chars.count - at else { return false }
                UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: chars[at...])).copyMemory(from: UnsafeRawBufferPointer(bytes))
                at += bytes.count
                return true
            }
            guard fits else { return nil }
            chars[at] = 0
            at += 1
            return chars.baseAddress.map { UnsafePointer($0 + start) }
        }
        for (i, field) in fields.enumerated() {
            guard let name = put(field.name), let value = put(field.value) else { return false }
            space[i] = tmhd_header(name: name, value: value)
        }
        return true
    }

    /// Queues `response` with its `count` fields at `headers`: a taken body with its reservation, moved to
    /// the server's `budget`, which the shim gives back once the answer is sent. Not inlined: the packing
    /// loop before it then keeps its registers (70 instructions a request less, callgrind).
    @inline(never)
    private static func respond(
        _ exchange: OpaquePointer, _ response: TrellisResponse, headers: UnsafePointer<tmhd_header>?, count: Int,
        budget: HTTPMemoryBudget?
    ) {
        let close: Int32 = response.closeConnection ? 1 : 0
        switch response.body {
        case .bytes(let bytes):
            bytes.withUnsafeBufferPointer { body in
                _ = tmhd_respond(
                    exchange, UInt32(response.status), headers, count, body.baseAddress, body.count, TMHD_BODY_COPY, body.count, close)
            }
        case .buffer(let buffer):
            let base = buffer.take(into: budget)
            _ = tmhd_respond(
                exchange, UInt32(response.status), headers, count, base, buffer.count, TMHD_BODY_TAKE, base == nil ? 0 : buffer.held,
                close)
        }
    }
}

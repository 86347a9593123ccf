/// How the server listens and what it tolerates.
public struct HTTPServerConfiguration: Sendable, Equatable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Worker threads, each with its own epoll loop; 0 means one thread per connection.
    public var threads: Int
    public var maxBodyBytes: Int
    public var maxConnections: Int
    /// Seconds an idle connection stays open.
    public var connectionTimeout: Int
    /// Per-connection buffer: it bounds the request line and headers, and libmicrohttpd clears it for
    /// every request, so larger values cost small requests throughput (256 KiB: about 0.6×).
    public var connectionMemoryLimit: Int
    /// Seconds a connection has to send a complete request head, counted from its accept or from
    /// the end of its previous answer, however slowly it trickles; 0 turns the deadline off.
    public var headerTimeout: Int
    /// Open connections one client address may hold; 0 means no limit (proxies share one address).
    public var maxConnectionsPerIP: Int
    /// Seconds a request body has to arrive, from the end of its head, however slowly it trickles;
    /// past it the connection is closed and the body's memory returned. 0 turns the deadline off.
    public var bodyTimeout: Int
    /// Seconds a client has to take an answer, from when it is queued; past it the connection is
    /// closed and the answer's memory returned. 0 turns the deadline off.
    public var sendTimeout: Int
    /// The server gives malloc's free memory back once idle; false for a second server in the
    /// process (the operations listener), whose idle rounds would trim while the API is busy.
    public var managesMemory = true
    /// Free bytes malloc may keep for the next requests while requests are in flight, and once the
    /// server is idle; past them free memory goes back to the system.
    public var keepFreeWhileBusy = 8 << 20
    public var keepFreeWhenIdle = 1 << 20
    /// The body gate: how many large bodies each worker thread reads at once, and how long and how
    /// many others wait.
    public var bodyGate = BodyGate()

    /// The body gate's rules (each worker thread has its own gate; none with a thread per connection).
    /// A body past `threshold` bytes is read on only while it holds one of its thread's `places`; the
    /// others wait (suspended, reading nothing, holding at most `threshold` bytes), first come first, at
    /// most `queue` of them and each for at most `maxWait` (and never past its body deadline); past
    /// either it is refused with 503 and `Retry-After`. A place is given back when its body is complete,
    /// after `maxHold`, or once its holder has sent nothing for `idle`.
    public struct BodyGate: Sendable, Equatable {
        public var threshold = 64 << 10
        public var places = 2
        public var queue = 64
        public var maxHold: Duration = .seconds(1)
        public var idle: Duration = .milliseconds(250)
        public var maxWait: Duration = .seconds(1)

        public init() {}
    }

    public init(
        host: String = "0.0.0.0", port: Int = 8080, threads: Int = 2, maxBodyBytes: Int = 8 << 20,
        maxConnections: Int = 1024, connectionTimeout: Int = 30, connectionMemoryLimit: Int = 32 << 10,
        headerTimeout: Int = 10, maxConnectionsPerIP: Int = 0, bodyTimeout: Int = 10, sendTimeout: Int = 10
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.headerTimeout = headerTimeout
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.bodyTimeout = bodyTimeout
        self.sendTimeout = sendTimeout
    }
}

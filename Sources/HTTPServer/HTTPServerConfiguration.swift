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

    public init(
        host: String = "0.0.0.0", port: Int = 8080, threads: Int = 2, maxBodyBytes: Int = 8 << 20,
        maxConnections: Int = 1024, connectionTimeout: Int = 30, connectionMemoryLimit: Int = 64 << 10
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
    }
}

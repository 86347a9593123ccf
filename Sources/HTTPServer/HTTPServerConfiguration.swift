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
    /// Per-connection read buffer; larger values mean fewer, larger reads for big uploads.
    public var connectionMemoryLimit: Int

    public init(
        host: String = "0.0.0.0", port: Int = 8080, threads: Int = 2, maxBodyBytes: Int = 8 << 20,
        maxConnections: Int = 1024, connectionTimeout: Int = 30, connectionMemoryLimit: Int = 256 << 10
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

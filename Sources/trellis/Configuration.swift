import Glibc
import TrellisServer
import TrellisHTTP
import TrellisAPI
import TrellisText

/// Flags and their environment variables (flags win).
struct Configuration {
    var server = HTTPServerConfiguration(threads: Configuration.cpuCount)
    var corsOrigins = "*"
    var log = "json"
    var command = Command.serve
    /// Bytes; nil until chosen: half the container's (cgroup) or the machine's memory.
    var memoryBudget: Int?
    var maxAnswerFactor = 16
    /// Seconds a request may compute before it is abandoned with a 503 (0: no limit).
    var requestTimeout = 5.0
    /// Seconds between SIGTERM and the drain, with /readyz 503 while requests are still served.
    var shutdownDelay = 0
    /// The operations listener's port (/healthz, /readyz, /metrics on their own thread); 0: none.
    var opsPort = 0
    /// Directories whose font files join the default packages' faces (--font-dir, TRELLIS_FONT_DIRS).
    var fontDirectories: [String] = []
    /// Whether the default packages' faces are loaded (--no-default-fonts drops them).
    var defaultFonts = true
    /// The families the generic names mean (--font-sans-serif, --font-serif, --font-monospace, --font-system-ui).
    var generics: [FontFamilyList.GenericFamily: String] = [:]
    /// The uploaded fonts' store: its bytes, the largest file, and where it persists.
    var fontStoreBytes = FontLibrary.defaultStoreBytes
    var maxFontBytes = FontLibrary.defaultMaxFontBytes
    var fontStoreDirectory: String?

    enum Command { case serve, healthcheck, help, version }

    /// A configuration mistake: one line on stderr, exit code 2.
    struct Invalid: Error { let message: String }

    /// The features as the registry lists them, by the first part of their paths: "outline, flow, …".
    static let featureNames: String = {
        var names: [String] = []
        for path in Features.paths {
            let name = String(path.split(separator: "/").dropFirst().first ?? "")
            if !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: ", ")
    }()

    static let usage = """
        Usage: trellis [healthcheck] [options]

        Trellis computes UI state and layout (\(featureNames)) over HTTP JSON.

          healthcheck                 exit 0 when GET /healthz answers 200 on --host and --ops-port
                                      when it is set, else on --port; else exit 1
          --host HOST                 listen address (TRELLIS_HOST; default 0.0.0.0)
          --port PORT                 listen port (TRELLIS_PORT, else PORT; default 8080)
          --threads N                 worker threads, each with its own epoll loop; 0 = one thread
                                      per connection (TRELLIS_THREADS; default: the CPU count); a
                                      large list borrows up to N - 1 more while they are idle
          --max-body-bytes N          largest request body (TRELLIS_MAX_BODY_BYTES; default 8388608)
          --max-connections N         open connections before answering 503 (TRELLIS_MAX_CONNECTIONS; default 1024)
          --connection-timeout S      seconds an idle connection stays open (TRELLIS_CONNECTION_TIMEOUT; default 30)
          --header-timeout S          seconds a connection has to send a complete request head, from its
                                      accept or its previous answer, however slowly it trickles; an idle
                                      keep-alive connection closes after it too (TRELLIS_HEADER_TIMEOUT; default 10)
          --body-timeout S            seconds a request body has to arrive after its head, however slowly
                                      it trickles; past it the connection is closed and its memory given
                                      back (TRELLIS_BODY_TIMEOUT; default 10: at least 0.8 MB/s for the
                                      largest body)
          --send-timeout S            seconds a client has to take an answer once it is ready; past it the
                                      connection is closed and the answer's memory given back
                                      (TRELLIS_SEND_TIMEOUT; default 10)
          --ops-port PORT             also serve GET /healthz, /readyz and /metrics on PORT, on a thread of
                                      their own (answered while every worker is busy); /healthz there is
                                      503 while a worker has been on one request longer than
                                      --request-timeout + 10 s; /metrics is then served only there;
                                      0 = off (TRELLIS_OPS_PORT; default 0)
          --max-connections-per-ip N  open connections one client address may hold, more are closed;
                                      0 = no limit (behind a proxy all share its address)
                                      (TRELLIS_MAX_CONNECTIONS_PER_IP; default 0)
          --connection-memory N       bytes per connection for the request line and headers
                                      (TRELLIS_CONNECTION_MEMORY; default 32768: heads up to about 16 KB)
          --memory-budget N           bytes of request bodies being received plus answers not yet sent;
                                      past it requests get 503 (TRELLIS_MEMORY_BUDGET; default: half
                                      the container's memory limit, else half the machine's memory)
          --max-answer-factor N       no answer is larger than N × its request body + 1 MiB
                                      (TRELLIS_MAX_ANSWER_FACTOR; default 16)
          --request-timeout S         seconds a request may compute (after its body has arrived) before
                                      it is abandoned with a 503; 0 = no limit; fractions allowed
                                      (TRELLIS_REQUEST_TIMEOUT; default 5)
          --shutdown-delay S          on SIGTERM, seconds to keep accepting and serving with /readyz
                                      answering 503 before the drain, so load balancers stop sending
                                      first; a second signal ends it (TRELLIS_SHUTDOWN_DELAY; default 0)
          --font-dir DIR              also measure text with the fonts in DIR (and its subdirectories), besides
                                      the faces of fonts-dejavu-core, fonts-dejavu-extra, fonts-ipafont-gothic,
                                      fonts-tlwg-garuda-ttf, fonts-nanum, fonts-droid-fallback,
                                      fonts-noto-color-emoji, fonts-liberation; repeatable (TRELLIS_FONT_DIRS, colon-separated)
          --no-default-fonts          load only the --font-dir fonts (TRELLIS_NO_DEFAULT_FONTS=1)
          --font-sans-serif FAMILY    the family sans-serif means (TRELLIS_FONT_SANS_SERIF; default DejaVu Sans);
                                      --font-serif (DejaVu Serif), --font-monospace (DejaVu Sans Mono) and
                                      --font-system-ui (DejaVu Sans) likewise (TRELLIS_FONT_SERIF, ...)
          --font-store-bytes N        memory the uploaded fonts may take, least recently used out first
                                      (TRELLIS_FONT_STORE_BYTES; default 67108864)
          --max-font-bytes N          largest font file a client may upload; 413 past it
                                      (TRELLIS_MAX_FONT_BYTES; default 8388608, at most --max-body-bytes)
          --font-store-dir DIR        keep uploaded fonts in DIR across restarts (TRELLIS_FONT_STORE_DIR)
          --cors-origins LIST         allowed browser origins, comma-separated, or * (TRELLIS_CORS_ORIGINS; default *)
          --log json|off              access log on stdout (TRELLIS_LOG; default json)
          --help                      this text
          --version                   the version

        """

    static var cpuCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    static func parse(_ arguments: [String], environment: [String: String]) throws(Invalid) -> Configuration {
        var config = Configuration()
        var values: [String: String] = [:]
        let envNames: [(flag: String, env: [String])] = [
            ("host", ["TRELLIS_HOST"]), ("port", ["TRELLIS_PORT", "PORT"]), ("threads", ["TRELLIS_THREADS"]),
            ("max-body-bytes", ["TRELLIS_MAX_BODY_BYTES"]), ("max-connections", ["TRELLIS_MAX_CONNECTIONS"]),
            ("connection-timeout", ["TRELLIS_CONNECTION_TIMEOUT"]), ("cors-origins", ["TRELLIS_CORS_ORIGINS"]),
            ("connection-memory", ["TRELLIS_CONNECTION_MEMORY"]),
            ("memory-budget", ["TRELLIS_MEMORY_BUDGET"]), ("max-answer-factor", ["TRELLIS_MAX_ANSWER_FACTOR"]),
            ("request-timeout", ["TRELLIS_REQUEST_TIMEOUT"]),
            ("header-timeout", ["TRELLIS_HEADER_TIMEOUT"]),
            ("body-timeout", ["TRELLIS_BODY_TIMEOUT"]), ("send-timeout", ["TRELLIS_SEND_TIMEOUT"]),
            ("ops-port", ["TRELLIS_OPS_PORT"]),
            ("max-connections-per-ip", ["TRELLIS_MAX_CONNECTIONS_PER_IP"]),
            ("shutdown-delay", ["TRELLIS_SHUTDOWN_DELAY"]),
            ("log", ["TRELLIS_LOG"]),
            ("font-sans-serif", ["TRELLIS_FONT_SANS_SERIF"]), ("font-serif", ["TRELLIS_FONT_SERIF"]),
            ("font-monospace", ["TRELLIS_FONT_MONOSPACE"]), ("font-system-ui", ["TRELLIS_FONT_SYSTEM_UI"]),
            ("font-store-bytes", ["TRELLIS_FONT_STORE_BYTES"]), ("max-font-bytes", ["TRELLIS_MAX_FONT_BYTES"]),
            ("font-store-dir", ["TRELLIS_FONT_STORE_DIR"]),
        ]
        for (flag, names) in envNames {
            if let value = names.lazy.compactMap({ environment[$0] }).first { values[flag] = value }
        }
        if let directories = environment["TRELLIS_FONT_DIRS"] {
            config.fontDirectories = directories.split(separator: ":").map(String.init)
        }
        if let no = environment["TRELLIS_NO_DEFAULT_FONTS"] {
            guard no == "1" || no == "0" else { throw Invalid(message: "TRELLIS_NO_DEFAULT_FONTS must be 1 or 0, not '\(no)'") }
            config.defaultFonts = no == "0"
        }
        var flagDirectories: [String] = []
        var rest = arguments[...]
        if rest.first == "healthcheck" {
            config.command = .healthcheck
            rest = rest.dropFirst()
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": config.command = .help; return config
            case "--version": config.command = .version; return config
            case "--no-default-fonts": config.defaultFonts = false; continue
            default: break
            }
            guard argument.hasPrefix("--") else { throw Invalid(message: "unexpected argument '\(argument)' (see --help)") }
            var name = String(argument.dropFirst(2))
            var value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                guard let next = rest.popFirst() else { throw Invalid(message: "--\(name) needs a value") }
                value = next
            }
            if name == "font-dir" {
                guard !value.isEmpty else { throw Invalid(message: "--font-dir must not be empty") }
                flagDirectories.append(value)
                continue
            }
            guard envNames.contains(where: { $0.flag == name }) else {
                throw Invalid(message: "unknown option --\(name) (see --help)")
            }
            values[name] = value
        }
        for (name, value) in values {
            try config.apply(name, value)
        }
        if !flagDirectories.isEmpty { config.fontDirectories = flagDirectories }
        if config.opsPort != 0 && config.opsPort == config.server.port {
            throw Invalid(message: "--ops-port must differ from --port (\(config.opsPort))")
        }
        return config
    }

    private mutating func apply(_ name: String, _ value: String) throws(Invalid) {
        func integer(_ range: ClosedRange<Int>) throws(Invalid) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw Invalid(message: "--\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(value)'")
            }
            return n
        }
        switch name {
        case "host":
            guard !value.isEmpty else { throw Invalid(message: "--host must not be empty") }
            server.host = value
        case "port": server.port = try integer(0...65535)
        case "threads": server.threads = try integer(0...256)
        case "max-body-bytes": server.maxBodyBytes = try integer(1...(1 << 30))
        case "max-connections": server.maxConnections = try integer(1...60000)
        case "connection-timeout": server.connectionTimeout = try integer(1...86400)
        case "connection-memory": server.connectionMemoryLimit = try integer((8 << 10)...(16 << 20))
        case "memory-budget": memoryBudget = try integer((1 << 20)...(1 << 50))
        case "max-answer-factor": maxAnswerFactor = try integer(1...1_000_000)
        case "request-timeout":
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 86400 else {
                throw Invalid(message: "--request-timeout must be a number of seconds in 0...86400, not '\(value)'")
            }
            requestTimeout = seconds
        case "header-timeout": server.headerTimeout = try integer(1...86400)
        case "body-timeout": server.bodyTimeout = try integer(1...86400)
        case "send-timeout": server.sendTimeout = try integer(1...86400)
        case "ops-port": opsPort = try integer(0...65535)
        case "max-connections-per-ip": server.maxConnectionsPerIP = try integer(0...60000)
        case "shutdown-delay": shutdownDelay = try integer(0...3600)
        case "cors-origins": corsOrigins = value
        case "log":
            guard value == "json" || value == "off" else { throw Invalid(message: "--log must be json or off, not '\(value)'") }
            log = value
        case "font-sans-serif", "font-serif", "font-monospace", "font-system-ui":
            guard !value.isEmpty, value.utf8.count <= 256 else { throw Invalid(message: "--\(name) must be a family name") }
            let generic = FontFamilyList.GenericFamily.allCases.first { "font-" + $0.cssName == name } ?? .sansSerif
            generics[generic] = value
        case "font-store-bytes": fontStoreBytes = try integer((1 << 20)...(1 << 40))
        case "max-font-bytes": maxFontBytes = try integer(1024...(1 << 30))
        case "font-store-dir":
            guard !value.isEmpty else { throw Invalid(message: "--font-store-dir must not be empty") }
            fontStoreDirectory = value
        default: break
        }
    }

    func service(memoryBudget: HTTPMemoryBudget?) -> ServiceConfiguration {
        ServiceConfiguration(
            cors: CORSPolicy(corsOrigins), log: AccessLog(enabled: log == "json"),
            maxAnswerFactor: maxAnswerFactor, memoryBudget: memoryBudget,
            requestTimeout: requestTimeout > 0 ? .nanoseconds(Int64(requestTimeout * 1e9)) : nil,
            metricsOnAPIPort: opsPort == 0)
    }

    /// The operations listener: the API's host and deadlines, one thread, a few connections, no bodies to speak of.
    /// Rule: its clients (a kubelet's probes, a Prometheus scrape) send a whole head at once and each comes
    /// from one address, so a head is due within `operationsHeaderTimeout` and one address holds at most
    /// `operationsConnectionsPerIP` connections: no one client can hold the listener's connections and make
    /// the liveness probe fail.
    var operations: HTTPServerConfiguration {
        let headerTimeout = server.headerTimeout > 0 ? min(server.headerTimeout, Self.operationsHeaderTimeout) : Self.operationsHeaderTimeout
        var operations = HTTPServerConfiguration(
            host: server.host, port: opsPort, threads: 1, maxBodyBytes: 4096, maxConnections: 64,
            connectionTimeout: server.connectionTimeout, connectionMemoryLimit: 16 << 10, headerTimeout: headerTimeout,
            maxConnectionsPerIP: Self.operationsConnectionsPerIP, bodyTimeout: server.bodyTimeout, sendTimeout: server.sendTimeout)
        operations.managesMemory = false
        return operations
    }

    /// Seconds an operations client has to send its request head.
    static let operationsHeaderTimeout = 2
    /// Connections one address may hold on the operations port.
    static let operationsConnectionsPerIP = 8

    /// The default memory budget: half the memory this process may use, from the cgroup v2 or v1
    /// limit when there is one (a container), else from the machine's physical memory.
    static func defaultMemoryBudget() -> Int {
        let physical = sysconf(Int32(_SC_PHYS_PAGES)) * sysconf(Int32(_SC_PAGESIZE))
        var limit = physical > 0 ? physical : 1 << 30
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = readSmallFile(path), let bytes = Int(text), bytes > 0 { limit = min(limit, bytes) }
        }
        return max(limit / 2, 16 << 20)
    }

    /// The first line of a small file ("max" and other words come back as they are), nil when unreadable.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}

import Glibc
import TrellisServer
import TrellisHTTP
import TrellisAPI
import TrellisText

/// One line on stderr (stdout carries the access log).
func say(_ message: String) {
    let line = Array("trellis: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func fail(_ message: String, code: Int32) -> Never {
    say(message)
    exit(code)
}

/// The process environment, read from `environ` (no Foundation in this binary).
func environment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    return result
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(Array(CommandLine.arguments.dropFirst()), environment: environment())
} catch {
    fail(error.message, code: 2)
}

switch configuration.command {
case .help:
    print(Configuration.usage, terminator: "")
    exit(0)
case .version:
    print("\(TrellisService.name) \(TrellisService.version)")
    exit(0)
case .healthcheck:
    let probed = configuration.opsPort > 0 ? configuration.opsPort : configuration.server.port
    let status = HTTPProbe.status(host: configuration.server.host, port: probed, path: "/healthz")
    exit(status == 200 ? 0 : 1)
case .serve:
    break
}

// SIGINT and SIGTERM are blocked in every thread (workers inherit the mask) and taken here by
// sigwait, so shutdown runs as ordinary code; SIGPIPE from closed sockets is ignored.
signal(SIGPIPE, SIG_IGN)
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

guard let memoryBudget = HTTPMemoryBudget(limit: configuration.memoryBudget ?? Configuration.defaultMemoryBudget()) else {
    fail("cannot allocate the memory budget", code: 1)
}
// Fonts load before the server listens, into the features' context: the --font-dir faces first (they win a
// tie with a default face of the same family), then the default packages' unless --no-default-fonts; no font
// at all, or a generic name meaning a family not loaded, is a configuration mistake (exit 2).
let fontFiles = configuration.fontDirectories.flatMap(FontFiles.directoryFiles)
    + (configuration.defaultFonts ? FontFiles.defaultFiles() : [])
let (faces, unusable) = FontFiles.load(fontFiles)
guard !faces.isEmpty else {
    var sources = configuration.fontDirectories.isEmpty ? [] : ["--font-dir " + configuration.fontDirectories.joined(separator: ", ")]
    if configuration.defaultFonts {
        sources.append("the packages " + FontFiles.defaultPackages.joined(separator: ", ") + " (apt-get install them)")
    }
    fail("no font to measure text with in " + (sources.isEmpty ? "nothing: --no-default-fonts without --font-dir" : sources.joined(separator: " or ")), code: 2)
}
let fonts = FontCollection(faces: faces, generics: configuration.generics)
for generic in FontFamilyList.GenericFamily.allCases where fonts.match(family: fonts.family(of: generic), weight: 400, style: .normal) == nil {
    fail("\(generic.cssName) means \"\(fonts.family(of: generic))\", which no loaded font has (--font-\(generic.cssName))", code: 2)
}
var storeDirectory: FontStoreDirectory?
if let path = configuration.fontStoreDirectory {
    guard let directory = FontStoreDirectory(path: path) else { fail("--font-store-dir \(path) is not a directory this process can write to", code: 2) }
    storeDirectory = directory
}
let fontLibrary = FontLibrary(
    storeBytes: configuration.fontStoreBytes, maxFontBytes: min(configuration.maxFontBytes, configuration.server.maxBodyBytes),
    sanitizer: FontSanitizer(temporaryDirectory: environment()["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"),
    directory: storeDirectory)
let storedFonts = fontLibrary.loadDirectory()
var serviceConfiguration = configuration.service(memoryBudget: memoryBudget)
// The shaping cache: an eighth of the memory budget, at most 256 MiB, its paragraphs taken from the budget as it keeps them.
// The kept lists: as much again.
// A large list borrows idle threads for its parts: at most the worker threads less one, across every request at once.
serviceConfiguration.context = FeatureContext(
    fonts: fonts, fontLibrary: fontLibrary,
    shapingCache: ShapingCache(byteCapacity: min(256 << 20, memoryBudget.limit / 8), budget: memoryBudget),
    listStore: ListStore(byteCapacity: min(256 << 20, memoryBudget.limit / 8), budget: memoryBudget),
    lanes: ThreadLanes(spare: max(1, configuration.server.threads) - 1))
let service = TrellisService(configuration: serviceConfiguration)
// The line breaker's constant tables (ICU's pairs, about 20 ms) are built before listening, not by the first request.
TextTables.build()
let server = HTTPServer(configuration: configuration.server, memoryBudget: memoryBudget, handler: service.handle)
// This process is the server's: malloc keeps large blocks in its arenas for the next requests.
HTTPServer.tuneProcessMemory()
let port: Int
do {
    port = try server.start()
} catch {
    fail(error.description, code: 1)
}
service.metrics.observeBodyGate { [server] in server.bodyGateFigures }
say("listening on \(configuration.server.host):\(port) with \(configuration.server.threads) threads, memory budget \(memoryBudget.limit) bytes, \(faces.count) font faces, \(storedFonts) stored fonts")
for path in unusable { say("skipped \(path): not a font file Trellis can read") }
// The operations listener: its own daemon and thread, so probes and scrapes are answered while every worker is busy.
var operations: HTTPServer?
if configuration.opsPort > 0 {
    let handler = service.operationsHandler(
        longestBusyWorker: { [server] in server.longestBusyWorker }, stuckAfter: serviceConfiguration.stuckWorkerAfter)
    let listener = HTTPServer(configuration: configuration.operations, memoryBudget: memoryBudget, handler: handler)
    do {
        let opsPort = try listener.start()
        say("operations (/healthz, /readyz, /metrics) on \(configuration.server.host):\(opsPort)")
    } catch {
        server.stop()
        fail("operations port: \(error.description)", code: 1)
    }
    operations = listener
}

var received: Int32 = 0
sigwait(&stopSignals, &received)
// Shutdown: /readyz turns 503; for --shutdown-delay seconds (cut short by a second signal) every
// connection is still accepted and served; then no new connections, requests in flight get up to 10 s.
service.beginDraining()
if configuration.shutdownDelay > 0 {
    say("signal \(received): /readyz answers 503, still serving for \(configuration.shutdownDelay) s")
    let end = ContinuousClock.now + .seconds(configuration.shutdownDelay)
    var left = Double(configuration.shutdownDelay)
    repeat {
        var wait = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
        if sigtimedwait(&stopSignals, nil, &wait) >= 0 || errno != EINTR { break }
        left = (end - ContinuousClock.now) / .seconds(1)
    } while left > 0
}
say("signal \(received): draining")
server.quiesce()
let deadline = ContinuousClock.now + .seconds(10)
while server.requestsInFlight > 0 && ContinuousClock.now < deadline {
    usleep(10_000)
}
server.stop()
operations?.stop()
exit(0)

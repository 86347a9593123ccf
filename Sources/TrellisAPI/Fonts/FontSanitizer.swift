import CProcessShim
import Glibc
import Synchronization
import TrellisText

/// Chromium's rule for web fonts: every font file passes the OpenType Sanitizer (OTS) before anything shapes with
/// it, a file OTS refuses is not used, and the shaper reads OTS's output, a plain sfnt (WOFF and WOFF2 decoded).
/// Debian's `opentype-sanitizer` ships OTS as the program `ots-sanitize IN OUT`, so it runs as a bounded
/// subprocess: started with posix_spawn through util-linux's `prlimit` (limits on CPU time, address space, the
/// size of any file it writes, open files and core dumps, set before OTS starts), never through a shell, with its
/// input and output in a private temporary directory (mode 0700) that is removed afterwards, and killed at its
/// wall-clock deadline. At most `concurrency` (one) run at once.
public final class FontSanitizer: Sendable {
    public struct Limits: Sendable {
        /// RLIMIT_CPU: the sanitizer's CPU seconds (past them the kernel stops it).
        public var cpuSeconds = 2
        /// RLIMIT_AS: its address space (a WOFF2 that declares a gigantic decompressed size fails to allocate it).
        public var addressSpaceBytes = 256 << 20
        /// Wall-clock time before it is killed (its CPU limit comes first unless the machine is busy).
        public var timeout = Duration.seconds(5)
        /// Sanitizers running at once; one more is refused at once (503 with Retry-After). One: uploads are rare
        /// (once per font and replica) and each holds up to about 4 × its output in memory while it runs.
        public var concurrency = 1

        public init() {}
    }

    public let executable: String
    public let limiter: String
    /// Where the private directories are made (`TMPDIR`, else /tmp).
    public let temporaryDirectory: String
    public let limits: Limits
    private let running = Mutex(0)

    public init(
        executable: String = "/usr/bin/ots-sanitize", limiter: String = "/usr/bin/prlimit", temporaryDirectory: String = "/tmp",
        limits: Limits = Limits()
    ) {
        self.executable = executable
        self.limiter = limiter
        self.temporaryDirectory = temporaryDirectory
        self.limits = limits
    }

    /// Why a font was not sanitized.
    public enum Failure: Error, Equatable, Sendable {
        /// OTS refused the file (Chromium does not use it either): its reasons, as it prints them.
        case refused(String)
        /// The sanitized font would be larger than `limit` bytes.
        case tooLarge(limit: Int)
        /// Sanitizing passed its bounds of time or memory: what happened.
        case exceededLimits(String)
        /// The sanitizer could not run here (not installed, no temporary directory, too many at once): the
        /// server's fault; retrying may succeed.
        case unavailable(String)
    }

    /// OTS's output for `bytes` (a TTF, OTF, WOFF or WOFF2 file): a plain sfnt in malloc'd memory the returned file
    /// owns. For a collection, `faces` asks for each of its first `faces` faces sanitized on its own (OTS's output of a
    /// whole collection can repeat its first face). Together the outputs are at most `outputLimit` bytes; `reserve` is
    /// asked for each output's bytes before they are read (false: refused as unavailable). Waits at most until
    /// `deadline` (then `.exceededLimits`).
    public func sanitize(
        _ bytes: UnsafeRawBufferPointer, faces: Int? = nil, outputLimit: Int, deadline: ContinuousClock.Instant? = nil,
        reserve: (Int) -> Bool = { _ in true }
    ) -> Result<[FontFile], Failure> {
        let admitted = running.withLock { count in
            guard count < limits.concurrency else { return false }
            count += 1
            return true
        }
        guard admitted else { return .failure(.unavailable("too many fonts are being sanitized at once; retry shortly")) }
        defer { running.withLock { $0 -= 1 } }
        guard let directory = PrivateDirectory(under: temporaryDirectory) else {
            return .failure(.unavailable("no private temporary directory could be made under \(temporaryDirectory)"))
        }
        defer { directory.remove() }
        guard directory.write(bytes, to: "font") else {
            return .failure(.unavailable("the font could not be written to \(temporaryDirectory)"))
        }
        let end = min(ContinuousClock.now + limits.timeout, deadline ?? .now + limits.timeout)
        var files: [FontFile] = []
        var left = outputLimit
        let indices: [Int?] = faces.map { count in (0..<count).map { $0 } } ?? [nil]
        for index in indices {
            switch run(directory, index: index, outputLimit: left, end: end, reserve: reserve) {
            case .success(let file):
                files.append(file)
                left -= file.byteCount
            case .failure(let failure):
                return .failure(failure == .tooLarge(limit: left) ? .tooLarge(limit: outputLimit) : failure)
            }
        }
        return .success(files)
    }

    /// One run of OTS over the directory's `font` (face `index` of a collection, or the whole file).
    private func run(
        _ directory: PrivateDirectory, index: Int?, outputLimit: Int, end: ContinuousClock.Instant, reserve: (Int) -> Bool
    ) -> Result<FontFile, Failure> {
        for name in ["sanitized", "messages", "errors"] { unlink(directory.path(name)) }
        guard let messages = directory.create("messages"), let errors = directory.create("errors") else {
            return .failure(.unavailable("the sanitizer's messages could not be kept in \(temporaryDirectory)"))
        }
        var arguments = [
            limiter, "--cpu=\(limits.cpuSeconds)", "--as=\(limits.addressSpaceBytes)", "--fsize=\(max(outputLimit, 4096))",
            "--nofile=32", "--core=0", executable, directory.path("font"), directory.path("sanitized"),
        ]
        if let index { arguments.append(String(index)) }
        let outcome = spawn(arguments, stdout: messages, stderr: errors, end: end)
        close(messages)
        close(errors)
        let printed = String(decoding: directory.read("messages", maxBytes: 1024) ?? [], as: UTF8.self)
        let complaints = String(decoding: directory.read("errors", maxBytes: 4096) ?? [], as: UTF8.self)
        switch outcome {
        case .notStarted(let error):
            return .failure(.unavailable("the sanitizer could not be started (\(String(cString: strerror(error))))"))
        case .timedOut:
            return .failure(.exceededLimits("sanitizing took longer than the server allows"))
        case .signaled(SIGXFSZ):
            return .failure(.tooLarge(limit: outputLimit))
        case .signaled(SIGXCPU), .signaled(SIGKILL):
            return .failure(.exceededLimits("sanitizing took more than \(limits.cpuSeconds) s of CPU time"))
        case .signaled(SIGABRT):
            return .failure(.exceededLimits("sanitizing needed more than \(limits.addressSpaceBytes >> 20) MiB of memory"))
        case .signaled(let signal):
            return .failure(.exceededLimits("the sanitizer stopped on this file (signal \(signal))"))
        case .exited(0) where printed.contains("sanitized successfully"):
            return read(directory, "sanitized", limit: outputLimit, reserve: reserve)
        case .exited(1) where printed.contains("Failed to sanitize"):
            return .failure(.refused(Self.reasons(complaints)))
        case .exited(let code):
            let said = complaints.split(separator: "\n").first.map { ": " + Self.printable(String($0)) } ?? ""
            return .failure(.unavailable("the sanitizer could not run (exit status \(code))\(said)"))
        }
    }

    /// How the subprocess ended.
    enum Outcome: Equatable {
        case notStarted(Int32)
        case exited(Int32)
        case signaled(Int32)
        case timedOut
    }

    private func spawn(_ arguments: [String], stdout: Int32, stderr: Int32, end: ContinuousClock.Instant) -> Outcome {
        let argv = arguments.map { strdup($0) }
        let envp = [strdup("LC_ALL=C")]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let started = (argv + [nil]).withUnsafeBufferPointer { args in
            (envp + [nil]).withUnsafeBufferPointer { env in
                tproc_spawn(limiter, args.baseAddress, env.baseAddress, stdout, stderr, &pid)
            }
        }
        guard started == 0 else { return .notStarted(started) }
        var status: Int32 = 0
        var pause = 200_000  // ns, doubling up to 5 ms: OTS usually takes a few milliseconds
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { return .exited(-1) }
            if ContinuousClock.now >= end {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .timedOut
            }
            var wait = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&wait, nil)
            pause = min(pause * 2, 5_000_000)
        }
        // The wait status: the low 7 bits are the terminating signal (0: exited, with its code above them).
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    private func read(
        _ directory: PrivateDirectory, _ name: String, limit: Int, reserve: (Int) -> Bool
    ) -> Result<FontFile, Failure> {
        let fd = open(directory.path(name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unavailable("the sanitized font could not be read")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unavailable("the sanitized font could not be read")) }
        let length = Int(info.st_size)
        guard length <= limit else { return .failure(.tooLarge(limit: limit)) }
        guard length > 0 else { return .failure(.refused("the sanitized font is empty")) }
        guard reserve(length) else { return .failure(.unavailable("the server is short of memory for this font")) }
        guard let base = malloc(length) else { return .failure(.unavailable("the server is short of memory for this font")) }
        var done = 0
        while done < length {
            let n = Glibc.read(fd, base + done, length - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                free(base)
                return .failure(.unavailable("the sanitized font could not be read"))
            }
            done += n
        }
        guard let file = FontFile(adoptingMemory: base, length: length) else {
            return .failure(.unavailable("the server is short of memory for this font"))
        }
        return .success(file)
    }

    /// OTS's reasons: its `ERROR:` lines (else whatever it printed), at most four, each cut to 200 printable bytes.
    static func reasons(_ text: String) -> String {
        let lines = text.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("ERROR: ") }.map { String($0.dropFirst("ERROR: ".count)) }
        let chosen = (errors.isEmpty ? lines : errors).prefix(4).map(printable).filter { !$0.isEmpty }
        return chosen.isEmpty ? "OTS does not accept the file as a font" : chosen.joined(separator: "; ")
    }

    /// ASCII U+0020–U+007E as it is, anything else as "?", at most 200 bytes.
    static func printable(_ text: String) -> String {
        String(decoding: text.utf8.prefix(200).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

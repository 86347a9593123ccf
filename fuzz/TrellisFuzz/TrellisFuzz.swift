// The libFuzzer target: arbitrary bytes as the body of a POST to one feature endpoint, through
// TrellisService.handle, so through the same decode → validate → core → encode path the server
// runs (simdjson parse in place, the endpoint's reader, TrellisCore, JSONWriter, problem+json).
//
// `make fuzz` builds it with -sanitize=fuzzer,address and -D TRELLIS_LIBFUZZER (libFuzzer then
// supplies main). The ordinary build has no libFuzzer, so it gets a main that replays files:
// `.build/debug/TrellisFuzz <endpoint> <file or directory>...` runs each input once, with the
// same checks, which is how a crash file from `make fuzz` is reproduced in a debugger.
//
// The endpoint comes from TRELLIS_FUZZ_ENDPOINT: a path such as /v1/flow/layout or the short
// name of its corpus folder (outline-expansion, outline-rows, flow-layout, sections-toggle,
// drawer-state, text-measure, text-layout, batch), or font-bytes: arbitrary bytes as a font file, read
// by HarfBuzz and the shim's own table readers and shaped with (`FontFuzz`).
//
// The cost check (`Cost`): every input's CPU time is held to TRELLIS_FUZZ_COST_MULTIPLE (default 8) ×
// what a normal request of its endpoint and size costs in the same build (calibrated at start; for an endpoint whose
// answer grows with what a request asks for rather than with its bytes, the drawer's keyframes, what a normal request
// of its size and answer costs: the cost model's allowance per answer byte, docs/limits.md), and,
// under AddressSanitizer, its peak working memory (allocated during the request, less the answer) to the
// endpoint's stated bytes per body byte plus a fixed allowance. Either is a finding.
import Glibc
import TrellisHTTP
import Synchronization
import TrellisAPI
import TrellisJSON
import TrellisSamples
import TrellisText

enum Fuzz {
    /// Corpus folder names and the paths they stand for, from the service's registry.
    static let endpoints: [(name: String, path: String)] = (Features.paths + [Features.batchPath]).map { (Features.shortName(of: $0), $0) }
        + [(FontFuzz.name, FontFuzz.name)]

    /// With the default fonts loaded, so that text requests are measured rather than answered 503.
    static let service = TrellisService(configuration: ServiceConfiguration(
        log: AccessLog(enabled: false), context: FeatureContext(fonts: FontCollection(faces: FontFiles.load(FontFiles.defaultFiles()).faces))))

    static func path(for selector: String) -> String? {
        endpoints.first { $0.name == selector || $0.path == selector }?.path
    }

    static func fail(_ message: String) -> Never {
        printError("TrellisFuzz: \(message)")
        abort()
    }

    static func printError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// One input. Aborts (a libFuzzer finding) when the answer breaks the contract.
    @discardableResult
    static func run(_ data: UnsafeRawBufferPointer, path: String) -> Int {
        if path == FontFuzz.name { return FontFuzz.run(data) }
        // The shim hands bodies over followed by TMHD_BODY_PADDING zero bytes and the service
        // parses them in place; do the same, in an allocation of exactly that size so that
        // AddressSanitizer catches any read past the padding.
        let padding = 64
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count + padding, alignment: 64)
        defer { buffer.deallocate() }
        if data.count > 0 { buffer.baseAddress!.copyMemory(from: data.baseAddress!, byteCount: data.count) }
        (buffer.baseAddress! + data.count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        let body = UnsafeRawBufferPointer(start: buffer.baseAddress, count: data.count)

        let started = ContinuousClock.now
        let measured = Cost.measure { handle(body, padding: padding, path: path) }
        let response = measured.response
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        // Cost: no input takes more than a second (libFuzzer's -timeout only catches hangs).
        if seconds > maxSeconds { fail("\(data.count) bytes took \(seconds) s (more than \(maxSeconds) s)") }
        Cost.check(measured, bytes: data.count, path: path) { Cost.measure { handle(body, padding: padding, path: path) } }
        // Amplification: no answer passes its bound.
        let bound = service.configuration.answerLimit(bodyBytes: data.count)
        if response.body.count > bound { fail("\(response.body.count) bytes answered to \(data.count) (bound \(bound))") }
        check(response, request: body)
        return response.status
    }

    static func handle(_ body: UnsafeRawBufferPointer, padding: Int, path: String) -> TrellisResponse {
        var headers = TrellisHeaders()
        headers.add("Content-Type", "application/json")
        return service.handle(TrellisRequest(method: "POST", path: path, headers: headers, body: body, bodyPadding: padding))
    }

    /// TRELLIS_FUZZ_MAX_SECONDS, default 1.
    static let maxSeconds: Double = getenv("TRELLIS_FUZZ_MAX_SECONDS").flatMap { Double(String(cString: $0)) } ?? 1

    /// The contract every answer to a POST with a JSON content type keeps: within 16 × the request
    /// + 1 MiB and a second (checked in `run`); 200 with a JSON object;
    /// or 400/413/422 with a problem+json object whose `status` matches, and for 422 a non-empty
    /// `errors` list (at most 100) whose every pointer leads into the request: to a value in it or,
    /// for a member that is missing, to the object that lacks it. Anything else (a 500, output
    /// that is not JSON, a pointer to nowhere) is a finding.
    static func check(_ response: TrellisResponse, request body: UnsafeRawBufferPointer) {
        let status = response.status
        guard [200, 400, 413, 422].contains(status) else { fail("unexpected status \(status)") }
        let type = response.headers["Content-Type"]
        let expected = status == 200 ? "application/json" : "application/problem+json"
        guard type == expected else { fail("status \(status) with Content-Type \(type ?? "none")") }
        let output = response.body.bytes
        let pointers = output.withUnsafeBytes { bytes -> [String]? in
            guard case .success(let document) = JSONDocument.parse(bytes, padded: false) else { return nil }
            let root = document.root
            guard root.kind == .object else { return nil }
            if status == 200 { return [] }
            guard root.member("status")?.int64 == Int64(status), let detail = root.member("detail")?.string,
                  !detail.isEmpty
            else { return nil }
            guard status == 422 else { return [] }
            guard let errors = root.member("errors"), errors.kind == .array, (1...100).contains(errors.count) else {
                return nil
            }
            var pointers: [String] = []
            for error in errors.elements {
                guard let pointer = error.member("pointer")?.string, error.member("detail")?.string != nil else {
                    return nil
                }
                pointers.append(pointer)
            }
            return pointers
        }
        guard let pointers else {
            fail("status \(status): the body is not the JSON object it should be: \(String(decoding: output.prefix(500), as: UTF8.self))")
        }
        guard !pointers.isEmpty else { return }
        // The request body parses (it was answered 422); parse it again to follow the pointers.
        guard case .success(let request) = JSONDocument.parse(body, padded: false) else {
            fail("422 for a body that does not parse")
        }
        for pointer in pointers where !leadsIntoRequest(pointer, request.root) {
            fail("422 with the pointer \(pointer), which leads nowhere in the request")
        }
    }

    /// RFC 6901: "" is the root; each "/token" steps into a member or an array index. Tokens are split and
    /// unescaped on the pointer's Unicode scalars, not its Characters: a member name may start with a combining
    /// mark, which would join the "/" before it into one Character.
    static func leadsIntoRequest(_ pointer: String, _ root: JSONValue) -> Bool {
        if pointer.isEmpty { return true }
        let scalars = Array(pointer.unicodeScalars)
        guard scalars.first == "/" else { return false }
        let tokens = scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { piece in
            var token = String.UnicodeScalarView()
            var i = piece.startIndex
            while i < piece.endIndex {
                let next = piece.index(after: i)
                if piece[i] == "~", next < piece.endIndex, piece[next] == "0" || piece[next] == "1" {
                    token.append(piece[next] == "0" ? "~" : "/")
                    i = piece.index(after: next)
                } else {
                    token.append(piece[i])
                    i = next
                }
            }
            return String(token)
        }
        var value = root
        for (i, token) in tokens.enumerated() {
            let last = i == tokens.count - 1
            switch value.kind {
            case .object:
                guard let member = value.member(token) else { return last }
                value = member
            case .array:
                guard let position = Int(token), position >= 0, position < value.count,
                      String(position) == token,
                      let element = value.elements.dropFirst(position).first(where: { _ in true })
                else { return false }
                value = element
            default:
                return false
            }
        }
        return true
    }

    static let selectedPath: String = {
        let selector = getenv("TRELLIS_FUZZ_ENDPOINT").map { String(cString: $0) } ?? ""
        guard let path = path(for: selector) else {
            fail("set TRELLIS_FUZZ_ENDPOINT to one of: " + endpoints.map(\.name).joined(separator: ", "))
        }
        return path
    }()
}

/// Cost per input against a normal request of the same endpoint and size.
enum Cost {
    struct Measured {
        let response: TrellisResponse
        /// CPU time of this thread.
        let seconds: Double
        /// Bytes allocated at the peak, beyond what was live before and the answer (0 without AddressSanitizer).
        let working: Int
    }

    /// TRELLIS_FUZZ_COST_MULTIPLE (default 8; 0 turns the check off). The service's target is 3× in a release
    /// build on large bodies (`make bench`, "Cost model"). This build has AddressSanitizer, which slows Swift code
    /// several times more than simdjson, HarfBuzz and ICU (Debian's, not instrumented), so the same request's ratio
    /// is higher here (a nested-terms search at 2.3× in release is 5× here); the inputs are small and one run is
    /// noisy. 8× flags the classes of request that cost many times more, which is what a fuzzer can find.
    static let multiple: Double = getenv("TRELLIS_FUZZ_COST_MULTIPLE").flatMap { Double(String(cString: $0)) } ?? 8
    /// TRELLIS_FUZZ_COST_REPORT=1: every input's cost (the least of three runs) against the yardstick, on stderr,
    /// for triage with the replayer.
    static let report = getenv("TRELLIS_FUZZ_COST_REPORT") != nil
    /// What any request may allocate besides its bytes' worth: the search's per-plane tables of folded scalars
    /// (at most 17 × 512 KiB), a text request's faces at one size, the writer's first block.
    static let fixedMemory = 10 << 20

    static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func measure(_ body: () -> TrellisResponse) -> Measured {
        let before = Allocations.live.load(ordering: .relaxed)
        Allocations.peak.store(before, ordering: .relaxed)
        let started = threadSeconds()
        let response = body()
        let seconds = threadSeconds() - started
        var answer = response.body.count
        if case .buffer(let buffer) = response.body { answer = buffer.held }
        let working = Allocations.enabled ? max(0, Allocations.peak.load(ordering: .relaxed) - before - answer) : 0
        return Measured(response: response, seconds: seconds, working: working)
    }

    /// What the transport costs a request before the service sees it (the bare libmicrohttpd server's 57,000
    /// instructions per request in BENCHMARKS.md's callgrind counts, about 25 µs here): part of every request's cost.
    static let transportSeconds = 25e-6

    /// CPU seconds of a normal request to the selected endpoint: fixed + per body byte (from two sizes) + per answer
    /// byte (0 unless the endpoint's answer can grow apart from its body; `calibrate`).
    nonisolated(unsafe) static var model: (fixed: Double, perByte: Double, perAnswerByte: Double)?

    /// What a normal request of `bytes` answered with `answer` bytes costs.
    static func normal(bytes: Int, answer: Int) -> Double? {
        model.map { $0.fixed + $0.perByte * Double(bytes) + $0.perAnswerByte * Double(answer) }
    }

    /// Fails when the input costs more than `multiple` × normal (measured again twice, the least kept, so that
    /// a scheduling hiccup is not a finding), or works with more memory than its endpoint states.
    static func check(_ first: Measured, bytes: Int, path: String, again: () -> Measured) {
        guard multiple > 0, let normal = normal(bytes: bytes, answer: first.response.body.count) else { return }
        let allowed = multiple * normal
        var seconds = first.seconds
        if seconds > allowed || report {
            for _ in 0..<2 { seconds = min(seconds, again().seconds) }
            if report {
                Fuzz.printError("cost: \(bytes) bytes, status \(first.response.status), answer \(first.response.body.count) bytes, "
                    + "\(first.seconds * 1e6) µs of CPU (\(first.seconds / normal) ×; the least of three runs \(seconds / normal) ×, "
                    + "with what a cache kept) against a normal request of that size and answer (\(normal * 1e6) µs)")
            }
            if seconds > allowed {
                Fuzz.fail("\(bytes) bytes answered with \(first.response.body.count) cost \(seconds * 1e3) ms of CPU, more than \(multiple) × a normal request of that size and answer (\(normal * 1e3) ms)")
            }
        }
        // A batch may hold any feature's entries: it reserves the most any of them states.
        let factor = Features.endpoints.first { $0.path == path }?.workingMemoryPerByte
            ?? Features.endpoints.map(\.workingMemoryPerByte).max() ?? 12
        if first.working > factor * bytes + fixedMemory {
            Fuzz.fail("\(bytes) bytes worked with \(first.working) bytes, more than \(factor) per byte + \(fixedMemory)")
        }
    }

    /// Every feature's samples (Sources/TrellisAPI/<Feature>/samples.json). Read for the calibration and dropped
    /// after it, not kept in a static: their templates are indirect enums, whose boxes Swift points to with tag bits
    /// in the pointer, which LeakSanitizer does not take for references, so at exit it reported every box a global
    /// kept as a leak (and libFuzzer a finding, after a run that found nothing).
    static func loadSamples() -> SampleSet {
        do {
            return try SampleSet.load()
        } catch {
            Fuzz.fail("the samples: \(error)")
        }
    }

    /// A normal request of the endpoint at `size` bytes, the least CPU time of 15 runs, each with a different salt
    /// (every text and number a cache could key on differs, so that each is measured as first seen).
    static func leastCost(_ samples: SampleSet, _ normal: Sample, size: Int, path: String) -> (bytes: Double, answer: Double, seconds: Double) {
        var least = Double.infinity, count = 0, answer = 0
        for salt in 0..<15 {
            var bytes: [UInt8]
            do {
                bytes = try samples.body(normal, size: size, salt: salt)
            } catch {
                Fuzz.fail("no normal request for \(path): \(error)")
            }
            count = bytes.count
            bytes += [UInt8](repeating: 0, count: 64)
            let measured = bytes.withUnsafeBytes { raw in
                Cost.measure { Fuzz.handle(UnsafeRawBufferPointer(rebasing: raw[0..<count]), padding: 64, path: path) }
            }
            if measured.response.status != 200 { Fuzz.fail("the normal request \(normal.name) to \(path) got \(measured.response.status)") }
            least = min(least, measured.seconds)
            answer = measured.response.body.count
        }
        return (Double(count), Double(answer), least)
    }

    /// Measures the normal requests and sets `model`. The normal sample its feature marks "fuzzer" (the most a
    /// request of it normally asks), small and large (about 16 KB, the fuzzer's longest input), gives the cost per
    /// body byte; a path without one is an error, never another endpoint's request. Where the feature also marks a
    /// normal sample "fuzzer": "answer" (a request whose answer grows with what it asks for, not with its bytes: the
    /// drawer's keyframes), that one, at the small size, gives the cost per answer byte: the three points are solved
    /// for the fixed cost, the cost per body byte and the cost per answer byte.
    static func calibrate(_ path: String) {
        guard multiple > 0, path != FontFuzz.name else { return }
        let samples = loadSamples()
        let normal: Sample, answerNormal: Sample?
        do {
            normal = try samples.fuzzerNormal(for: path)
            answerNormal = try samples.fuzzerAnswerNormal(for: path)
        } catch {
            Fuzz.fail("no normal request for \(path): \(error)")
        }
        let small = leastCost(samples, normal, size: SampleSet.small, path: path)
        let large = leastCost(samples, normal, size: SampleSet.large, path: path)
        var perByte = max(0, (large.seconds - small.seconds) / (large.bytes - small.bytes))
        var perAnswerByte = 0.0
        if let answerNormal {
            // seconds = fixed + perByte × bytes + perAnswerByte × answer through the three points (Cramer's rule on
            // their differences from the small one).
            let long = leastCost(samples, answerNormal, size: SampleSet.small, path: path)
            let (bytes1, answer1, seconds1) = (large.bytes - small.bytes, large.answer - small.answer, large.seconds - small.seconds)
            let (bytes2, answer2, seconds2) = (long.bytes - small.bytes, long.answer - small.answer, long.seconds - small.seconds)
            let determinant = bytes1 * answer2 - bytes2 * answer1
            guard abs(determinant) > 1e-6 * abs(bytes1 * answer2) else {
                Fuzz.fail("\(answerNormal.name)'s answer does not grow apart from its body: it cannot give a cost per answer byte")
            }
            perByte = max(0, (seconds1 * answer2 - seconds2 * answer1) / determinant)
            perAnswerByte = max(0, (bytes1 * seconds2 - bytes2 * seconds1) / determinant)
        }
        let fixed = max(0, small.seconds - perByte * small.bytes - perAnswerByte * small.answer) + transportSeconds
        model = (fixed, perByte, perAnswerByte)
        Fuzz.printError("calibration: a normal request to \(path) costs \(fixed * 1e6) µs + \(perByte * 1e9) ns per byte"
            + (answerNormal == nil ? "" : " + \(perAnswerByte * 1e9) ns per answer byte"))
    }
}

/// Bytes allocated now and at the peak since it was last set, counted by AddressSanitizer's hooks (only in
/// the libFuzzer build).
enum Allocations {
    static let live = Atomic<Int>(0)
    static let peak = Atomic<Int>(0)
    nonisolated(unsafe) static var enabled = false

    static func count(_ bytes: Int) {
        let now = live.wrappingAdd(bytes, ordering: .relaxed).newValue
        if now > peak.load(ordering: .relaxed) { peak.store(now, ordering: .relaxed) }
    }
}

#if TRELLIS_LIBFUZZER
@_extern(c, "__sanitizer_install_malloc_and_free_hooks")
func installAllocationHooks(
    _ onMalloc: @convention(c) (UnsafeRawPointer?, Int) -> Void, _ onFree: @convention(c) (UnsafeRawPointer?) -> Void
) -> CInt

@_extern(c, "__sanitizer_get_allocated_size")
func allocatedSize(_ pointer: UnsafeRawPointer?) -> Int

@_extern(c, "__sanitizer_get_ownership")
func ownedBySanitizer(_ pointer: UnsafeRawPointer?) -> CInt
#endif

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    // The thread's parser grows once to more than the longest input, so that no input is charged for it.
    var big = Array(("[" + String(repeating: "0,", count: 300_000) + "0]").utf8)
    big += [UInt8](repeating: 0, count: 64)
    big.withUnsafeBytes { _ = JSONDocument.parse(UnsafeRawBufferPointer(rebasing: $0[0..<($0.count - 64)]), padded: true) }
    #if TRELLIS_LIBFUZZER
    _ = installAllocationHooks(
        { _, size in Allocations.count(size) },
        { pointer in if pointer != nil && ownedBySanitizer(pointer) != 0 { Allocations.count(-allocatedSize(pointer)) } })
    Allocations.enabled = true
    #endif
    Cost.calibrate(Fuzz.selectedPath)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    Fuzz.run(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), path: Fuzz.selectedPath)
    return 0
}

#if TRELLIS_LIBFUZZER
/// libFuzzer's entry point for programs that have their own main (SwiftPM names the main
/// function of an executable target itself, so libFuzzer's main cannot be used).
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt
#endif

@main
struct Main {
    static func main() {
        #if TRELLIS_LIBFUZZER
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        replay()
        #endif
    }

    /// Replays inputs without libFuzzer: `TrellisFuzz <endpoint> <file or directory>...`.
    static func replay() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let selector = arguments.first, let path = Fuzz.path(for: selector), arguments.count > 1 else {
            Fuzz.printError("usage: TrellisFuzz <endpoint> <file or directory>...\nendpoints: "
                + Fuzz.endpoints.map(\.name).joined(separator: ", "))
            exit(2)
        }
        Cost.calibrate(path)
        var count = 0
        for argument in arguments.dropFirst() {
            for file in files(argument) {
                let bytes = read(file)
                let status = bytes.withUnsafeBytes { Fuzz.run($0, path: path) }
                print("\(status) \(file)")
                count += 1
            }
        }
        print("replayed \(count) inputs against \(path)")
    }

    static func files(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { Fuzz.fail("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}

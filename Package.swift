// swift-tools-version:6.0
import PackageDescription

let strictC: [CSetting] = [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]

let package = Package(
    name: "Trellis",
    // The oldest Apple releases with URLSession's async API, which TrellisClient calls; Linux is unaffected.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .executable(name: "trellis", targets: ["trellis"]),
        // For apps: the service's client, and the same algorithms to run on the device.
        .library(name: "TrellisClient", targets: ["TrellisClient"]),
        .library(name: "TrellisCore", targets: ["TrellisCore"]),
    ],
    targets: [
        // libmicrohttpd, found through pkg-config.
        .systemLibrary(
            name: "CTrellisMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "CMicroHTTPDShim", dependencies: ["CTrellisMicroHTTPD"], cSettings: strictC),
        // simdjson (Debian's libsimdjson-dev). SwiftPM refuses -D flags from pkg-config, so the
        // shim defines the macro from simdjson's pkg-config Cflags itself, and the Makefile
        // checks that `pkg-config --cflags simdjson` still reports exactly that flag.
        .target(
            name: "CSimdJSON",
            cxxSettings: [
                .define("SIMDJSON_THREADS_ENABLED", to: "1"),
                .unsafeFlags(["-Wall", "-Wextra", "-Werror"]),
            ],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        // HarfBuzz and ICU (Debian's libharfbuzz-dev, libicu-dev): faces, shaping, bidi levels and
        // grapheme clusters for text measurement (tfont_*).
        .target(
            name: "CHarfBuzzShim", cSettings: strictC,
            linkerSettings: [.linkedLibrary("harfbuzz"), .linkedLibrary("icuuc")]
        ),
        // SHA-256 from OpenSSL's libcrypto (Debian's libssl-dev): uploaded fonts' content ids and the fixed
        // answers' entity tags (tcrypto_*).
        .target(name: "CCryptoShim", cSettings: strictC, linkerSettings: [.linkedLibrary("crypto")]),
        // posix_spawn with the file actions Swift's Glibc does not import (tproc_*): the font sanitizer's subprocess.
        .target(name: "CProcessShim", cSettings: strictC),
        // HTTP values (request, response, headers, body, status, the memory budget): no C, so the
        // API builds and its router tests run without libmicrohttpd.
        .target(name: "TrellisHTTP"),
        // The transport: the one Swift module that touches libmicrohttpd (through the shim).
        .target(name: "TrellisServer", dependencies: ["CMicroHTTPDShim", "TrellisHTTP"]),
        .target(name: "TrellisCore"),
        // Text measurement as Chromium does it (fonts, matching, fallback, widths, the cache): the only
        // Swift that imports CHarfBuzzShim; no I/O (font bytes come from the API's start-up).
        .target(name: "TrellisText", dependencies: ["CHarfBuzzShim", "TrellisCore"]),
        // The Swift client: Foundation only (FoundationNetworking on Linux), no other Trellis module.
        .target(name: "TrellisClient"),
        // The only Swift that touches simdjson: the parsed view, typed readers, pointers, ids, the writer.
        .target(name: "TrellisJSON", dependencies: ["CSimdJSON"]),
        .target(
            name: "TrellisAPI",
            dependencies: ["CCryptoShim", "CProcessShim", "TrellisCore", "TrellisHTTP", "TrellisJSON", "TrellisText"],
            // Each feature's sample requests are data for the tests, the fuzzer and the benchmarks (TrellisSamples).
            exclude: [
                "Batch/samples.json", "Drawer/samples.json", "Flow/samples.json", "Outline/samples.json",
                "Sections/samples.json", "Text/samples.json", "TextLayout/samples.json", "List/samples.json",
            ],
            resources: [
                .embedInCode("Resources/openapi.yaml"), .embedInCode("Resources/playground.html"),
                .embedInCode("Resources/trellis.mjs"),
            ]
        ),
        .executableTarget(name: "trellis", dependencies: ["TrellisAPI", "TrellisServer", "TrellisHTTP", "TrellisText"]),
        // `make bench`: the JSON layer against Foundation's coders.
        .executableTarget(name: "TrellisJSONBench", dependencies: ["TrellisAPI", "TrellisJSON"], path: "bench/TrellisJSONBench"),
        // `make fuzz`: the libFuzzer target (built apart, with -sanitize=fuzzer,address); the
        // ordinary build makes it a replayer of saved inputs. See fuzz/TrellisFuzz.
        .executableTarget(
            name: "TrellisFuzz", dependencies: ["TrellisAPI", "TrellisHTTP", "TrellisJSON", "TrellisSamples", "TrellisText"],
            path: "fuzz/TrellisFuzz",
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        // Each feature's samples (Sources/TrellisAPI/<Feature>/samples.json) read and their recipes expanded, as
        // scripts/trellis_samples.py does: for the fuzz target's normal requests and the tests.
        .target(name: "TrellisSamples", dependencies: ["TrellisJSON"], path: "Tests/TrellisSamples"),
        // What every test target shares: the real server on a loopback port and raw connections to it,
        // router-level calls, the default fonts loaded once, seeded generators and reference models.
        .target(
            name: "TrellisTestSupport",
            dependencies: ["TrellisAPI", "TrellisServer", "TrellisHTTP", "TrellisText", "TrellisClient"],
            path: "Tests/TrellisTestSupport"
        ),
        // One test target per module, named after it.
        .testTarget(name: "TrellisCoreTests", dependencies: ["TrellisCore", "TrellisTestSupport"], exclude: ["Flow/Fixtures"]),
        .testTarget(name: "TrellisJSONTests", dependencies: ["TrellisJSON", "TrellisTestSupport"]),
        .testTarget(
            name: "TrellisTextTests", dependencies: ["TrellisText", "TrellisAPI", "TrellisHTTP", "TrellisTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "TrellisServerTests", dependencies: ["TrellisServer", "TrellisHTTP", "TrellisTestSupport"]),
        .testTarget(
            name: "TrellisAPITests",
            dependencies: ["TrellisAPI", "TrellisJSON", "TrellisHTTP", "TrellisSamples", "TrellisServer", "TrellisTestSupport", "TrellisText"],
            exclude: ["AnswerCorpus/answers.jsonl", "Fonts/Fixtures"]
        ),
        // The client against the live server; TrellisCore for the README's on-device snippet.
        .testTarget(
            name: "TrellisClientTests",
            dependencies: ["TrellisClient", "TrellisCore", "TrellisAPI", "TrellisServer", "TrellisHTTP", "TrellisText", "TrellisTestSupport"]
        ),
        // The `trellis` executable, run as a process.
        .testTarget(name: "TrellisExecutableTests", dependencies: ["trellis", "TrellisTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

// swift-tools-version:5.9
import PackageDescription

// Dependencies flow one way: system libraries -> MemoCore -> SQLite -> feature
// modules -> MemoKit (the application layer) -> MemoAPI (the wire format) ->
// front ends (MemoCLI, the server on HTTPServer) -> memoapp. HTTPServer and
// CommandLineKit need only MemoCore. No package beyond the toolchain.
let package = Package(
    name: "memoapp",
    products: [
        .executable(name: "memoapp", targets: ["memoapp"]),
    ],
    targets: [
        // libsqlite3 through pkg-config (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libsndfile's header (Debian: libsndfile1-dev), not linked: VoiceMemos loads
        // libsndfile.so.1 on first use, so only voice commands pay for it and its codecs.
        .systemLibrary(name: "CSndFile", path: "Sources/CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        // FFmpeg's headers (Debian: libavformat-dev, libavcodec-dev, libavutil-dev), not linked:
        // VoiceMemos loads libavformat (and with it libavcodec, libavutil) only for the AAC and
        // ALAC libsndfile cannot read, so nothing else pays for FFmpeg's many libraries.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        // xxHash inlined from its header (Debian: libxxhash-dev): XXH3-128 checksums of stored audio.
        .systemLibrary(name: "CXXHash", path: "Sources/CXXHash", providers: [.apt(["libxxhash-dev"])]),
        // Jansson's header (Debian: libjansson-dev), not linked: MemoCore loads
        // libjansson.so.4 when a command first reads JSON (imports, restore).
        .systemLibrary(name: "CJansson", path: "Sources/CJansson", providers: [.apt(["libjansson-dev"])]),
        // libmicrohttpd's header (Debian: libmicrohttpd-dev), not linked (LGPL, and only a
        // server needs it): HTTPServer loads libmicrohttpd.so.12 when a server first starts.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // libsodium's header (Debian: libsodium-dev), not linked: MemoKit loads libsodium.so.23
        // when API tokens are first made or checked (random bytes, SHA-256, constant-time compare).
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", providers: [.apt(["libsodium-dev"])]),
        // libcurl's header (Debian: libcurl4-openssl-dev), not linked: HTTPClient loads
        // libcurl.so.4 when `memoapp sync` first reaches a server (HTTP and HTTPS).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Shared vocabulary: error kinds, localized text, the injectable clock, JSON values.
        .target(name: "MemoCore", dependencies: ["CJansson", "CXXHash"], path: "Sources/MemoCore"),
        // SQLite for any program: connections with a configuration, statements, typed errors,
        // transactions and savepoints, migrations, and a pool for many threads.
        .target(name: "SQLite", dependencies: ["CSQLite"], path: "Sources/SQLite"),
        // First-run onboarding: pages (ko, en), the pure flow, its persisted state and the route.
        .target(name: "Onboarding", dependencies: ["MemoCore", "SQLite"], path: "Sources/Onboarding"),
        // To-dos and memos in SQLite, with full-text search that works for Korean
        // (its FTS5 tokenizer talks to libsqlite3 directly).
        .target(name: "Notes", dependencies: ["MemoCore", "SQLite", "CSQLite"], path: "Sources/Notes"),
        // Voice memos: audio through libsndfile (and FFmpeg for AAC and ALAC), the voice/
        // library folder and its table.
        .target(name: "VoiceMemos", dependencies: ["MemoCore", "SQLite", "CSndFile", "CFFmpeg", "CXXHash"],
                path: "Sources/VoiceMemos"),
        // Countdowns and stopwatches that live in the database, not in a process.
        .target(name: "Timers", dependencies: ["MemoCore", "SQLite"], path: "Sources/Timers"),
        // An app-agnostic HTTP/1.1 server over libmicrohttpd: requests, responses, a router,
        // streamed bodies, Server-Sent Events, graceful stop. Knows nothing of memoapp.
        .target(name: "HTTPServer", dependencies: ["MemoCore", "CMicroHTTPD", "CZlib"], path: "Sources/HTTPServer"),
        // An app-agnostic HTTP(S) client over libcurl: one request, its answer. A sync
        // device reaches its hub through it.
        .target(name: "HTTPClient", dependencies: ["MemoCore", "CCurl"], path: "Sources/HTTPClient"),
        // The web app: its HTML, CSS and JavaScript embedded in the binary as byte arrays
        // (SwiftPM's embedInCode, no Foundation) and the routes serving them. Its own
        // target, so that only a change of the page recompiles the generated arrays.
        .target(name: "WebApp", dependencies: ["HTTPServer", "MemoCore"], path: "Sources/WebApp",
                resources: [.embedInCode("Web")]),
        // The application layer every front end shares: the data home, the schema, the
        // onboarding gate, error classification, and the use cases (backup, restore,
        // export, import, doctor, search across features). Nothing in it prints.
        .target(name: "MemoKit", dependencies: ["MemoCore", "SQLite", "Onboarding", "Notes", "VoiceMemos", "Timers",
                                                "CSodium"],
                path: "Sources/MemoKit"),
        // The wire format: the JSON of every item, list, result and error, as pure
        // functions. The CLI's --json and the server's bodies are these documents.
        .target(name: "MemoAPI", dependencies: ["MemoCore", "MemoKit", "Onboarding", "Notes", "VoiceMemos", "Timers"],
                path: "Sources/MemoAPI"),
        // The memoapp HTTP API over HTTPServer: routes, access (tokens), the gate in the
        // router's hook, error kinds to statuses, events. The CLI's `serve` starts it.
        .target(name: "MemoServer", dependencies: ["HTTPServer", "MemoCore", "SQLite", "MemoKit", "MemoAPI", "Onboarding",
                                                   "Notes", "VoiceMemos", "Timers", "WebApp"],
                path: "Sources/MemoServer"),
        // A command-line framework that knows no feature: commands as declarations,
        // typed argument keys, parsing, help. Depends on MemoCore for its vocabulary.
        .target(name: "CommandLineKit", dependencies: ["MemoCore"], path: "Sources/CommandLineKit"),
        // The command line: parse, call the application layer, render text or the wire
        // format, map error kinds to exit codes; terminal handling.
        .target(name: "MemoCLI", dependencies: ["CommandLineKit", "MemoCore", "MemoKit", "MemoAPI", "MemoServer", "Onboarding",
                                                "Notes", "VoiceMemos", "Timers", "HTTPClient"],
                path: "Sources/MemoCLI"),
        // The executable: a few lines that hand argv to MemoCLI.
        .executableTarget(name: "memoapp", dependencies: ["MemoCLI"], path: "Sources/memoapp"),
        // Runs SQL on a memoapp database with the search tokenizer registered, which the
        // sqlite3 shell lacks: scripts/bench fills data homes with it, tests write "by hand".
        .executableTarget(name: "memoapp-sql", dependencies: ["MemoKit", "SQLite", "CSQLite"], path: "Tools/MemoappSQL"),
        // libFuzzer target for the voice import path (scripts/fuzz-voice); without
        // -D FUZZING it replays the files named on its command line.
        .executableTarget(name: "voice-fuzz", dependencies: ["VoiceMemos", "MemoCore"], path: "Fuzz/VoiceFuzz"),
        // A server for measuring HTTPServer from outside (wrk, RSS): a trivial GET and an
        // event stream. Not part of the product.
        .executableTarget(name: "http-demo", dependencies: ["HTTPServer", "MemoCore"], path: "Fuzz/HTTPDemo"),

        // Helpers every test target shares: temporary homes, running the binary.
        .target(name: "TestSupport", dependencies: ["MemoCore", "SQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "MemoCoreTests", dependencies: ["MemoCore", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "OnboardingTests", dependencies: ["Onboarding", "TestSupport"]),
        .testTarget(name: "NotesTests", dependencies: ["Notes", "TestSupport"]),
        // Links libsndfile itself: its fixtures write and read audio with it directly.
        .testTarget(name: "VoiceMemosTests", dependencies: ["VoiceMemos", "TestSupport"],
                    linkerSettings: [.linkedLibrary("sndfile")]),
        .testTarget(name: "TimersTests", dependencies: ["Timers", "TestSupport"]),
        .testTarget(name: "MemoKitTests", dependencies: ["MemoKit", "TestSupport"]),
        .testTarget(name: "MemoAPITests", dependencies: ["MemoAPI", "Notes", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "WebAppTests", dependencies: ["WebApp", "HTTPServer", "TestSupport"]),
        .testTarget(name: "MemoServerTests", dependencies: ["MemoServer", "HTTPServer", "MemoKit", "TestSupport"]),
        .testTarget(name: "MemoCLITests", dependencies: ["MemoCLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    ]
)

// How release builds make memoapp start fast (scripts/run and scripts/bench
// build with these, measured by scripts/bench). Debug builds and tests are unaffected.
for target in package.targets where target.type == .regular || target.type == .executable {
    // Generic types' metadata through direct accessor functions instead of a type name
    // demangled at run time: ~0.4M fewer instructions at every start.
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                     .when(configuration: .release)),
    ]
    // The command-line framework is generic over the front end's context: its
    // code is made available to MemoCLI so that the parser is specialized there
    // instead of running as unspecialized generic code at every start.
    if target.name == "CommandLineKit" {
        target.swiftSettings = (target.swiftSettings ?? []) + [
            .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
        ]
    }
    // The C++ runtime linked statically, as --static-swift-stdlib links the Swift
    // runtime (see Linking/static-libstdc++).
    if target.name == "memoapp" {
        target.linkerSettings = (target.linkerSettings ?? []) + [
            .unsafeFlags(["-L", Context.packageDirectory + "/Linking/static-libstdc++"], .when(configuration: .release)),
        ]
        // Every start relocates the binary (PIE, so the server keeps ASLR):
        // 23,000 pointers, which gold lists as 560 KB of RELA entries that
        // the loader reads page by page. lld packs them as RELR (5 KB; glibc
        // 2.36 reads it and an older one refuses the binary by name). And
        // --static-swift-stdlib exports every symbol of memoapp's own code
        // (-export-dynamic in the toolchain's static-stdlib-args.lnk), 5,600
        // of them, which only grow the tables the loader and dladdr (called
        // by the Swift runtime at start) walk; nothing looks them up.
        // Together: about 0.3M instructions (3%) and 10 page faults fewer
        // per command. (scripts/run and scripts/bench also build with
        // --disable-local-rpath, for the same reason: see scripts/run.)
        // The unwinder the static C++ runtime needs is linked in with it
        // (-static-libgcc), one shared library fewer to find, map and
        // relocate at every start (10 page faults).
        target.linkerSettings = (target.linkerSettings ?? []) + [
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                          "-Xlinker", "--no-export-dynamic", "-Xclang-linker", "-static-libgcc"],
                         .when(configuration: .release)),
        ]
    }
}

// swift-tools-version:5.9
import PackageDescription

// Dependencies flow one way: system libraries -> MemoCore -> SQLite -> feature
// modules -> MemoCLI -> memoapp. No package beyond the toolchain.
let package = Package(
    name: "memoapp",
    products: [
        .executable(name: "memoapp", targets: ["memoapp"]),
    ],
    targets: [
        // libsqlite3 through pkg-config (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libsndfile through pkg-config (Debian: libsndfile1-dev).
        .systemLibrary(name: "CSndFile", path: "Sources/CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        // libxxhash through pkg-config (Debian: libxxhash-dev): XXH3-128 checksums of stored audio.
        .systemLibrary(name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash",
                       providers: [.apt(["libxxhash-dev"])]),
        // libjansson through pkg-config (Debian: libjansson-dev): parsing JSON documents.
        .systemLibrary(name: "CJansson", path: "Sources/CJansson", pkgConfig: "jansson",
                       providers: [.apt(["libjansson-dev"])]),
        // Shared vocabulary: error kinds, localized text, the injectable clock, JSON values.
        .target(name: "MemoCore", dependencies: ["CJansson", "CXXHash"], path: "Sources/MemoCore"),
        // Thin SQLite layer: connection, statements, typed errors, transactions, migrations.
        .target(name: "SQLite", dependencies: ["CSQLite", "MemoCore"], path: "Sources/SQLite"),
        // First-run onboarding: pages (ko, en), the pure flow, its persisted state and the route.
        .target(name: "Onboarding", dependencies: ["MemoCore", "SQLite"], path: "Sources/Onboarding"),
        // To-dos and memos in SQLite, with full-text search that works for Korean.
        .target(name: "Notes", dependencies: ["MemoCore", "SQLite"], path: "Sources/Notes"),
        // Voice memos: audio through libsndfile, the voice/ library folder and its table.
        .target(name: "VoiceMemos", dependencies: ["MemoCore", "SQLite", "CSndFile", "CXXHash"],
                path: "Sources/VoiceMemos"),
        // Countdowns and stopwatches that live in the database, not in a process.
        .target(name: "Timers", dependencies: ["MemoCore", "SQLite"], path: "Sources/Timers"),
        // Argument parsing, commands, text and JSON rendering, terminal handling.
        .target(name: "MemoCLI", dependencies: ["MemoCore", "SQLite", "Onboarding", "Notes", "VoiceMemos", "Timers"],
                path: "Sources/MemoCLI"),
        // The executable: a few lines that hand argv to MemoCLI.
        .executableTarget(name: "memoapp", dependencies: ["MemoCLI"], path: "Sources/memoapp"),
        // libFuzzer target for the voice import path (scripts/fuzz-voice); without
        // -D FUZZING it replays the files named on its command line.
        .executableTarget(name: "voice-fuzz", dependencies: ["VoiceMemos", "MemoCore"], path: "Fuzz/VoiceFuzz"),

        // Helpers every test target shares: temporary homes, running the binary.
        .target(name: "TestSupport", dependencies: ["MemoCore", "SQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "MemoCoreTests", dependencies: ["MemoCore", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "OnboardingTests", dependencies: ["Onboarding", "TestSupport"]),
        .testTarget(name: "NotesTests", dependencies: ["Notes", "TestSupport"]),
        .testTarget(name: "VoiceMemosTests", dependencies: ["VoiceMemos", "TestSupport"]),
        .testTarget(name: "TimersTests", dependencies: ["Timers", "TestSupport"]),
        .testTarget(name: "MemoCLITests", dependencies: ["MemoCLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    ]
)

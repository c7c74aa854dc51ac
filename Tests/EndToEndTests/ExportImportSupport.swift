import Foundation
import TestSupport
import XCTest

/// Data homes for the export and import end-to-end tests.
struct TransferHomes {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    let folder = TemporaryDirectory()

    /// An onboarded memoapp in `folder/name`.
    func home(_ name: String, onboarded: Bool = true) -> Memoapp {
        let app = Memoapp(home: folder.appending(name))
        if onboarded { app.onboard() }
        return app
    }

    /// The export's text with its own time taken out, for comparing two exports.
    static func withoutExportTime(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("  \"exported_at\": ") }.joined(separator: "\n")
    }
}

extension Memoapp {
    /// Runs a command that must succeed and returns its JSON object.
    @discardableResult
    func object(_ arguments: String..., input: Data? = nil, file: StaticString = #filePath,
                line: UInt = #line) -> [String: Any] {
        let result = run(arguments + ["--json"], input: input)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result.object(file: file, line: line)
    }

    /// Runs a command that must succeed.
    func succeed(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        let result = run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
    }

    /// The export document on stdout, its time taken out.
    func exportText(file: StaticString = #filePath, line: UInt = #line) -> String {
        let result = run(["export"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return TransferHomes.withoutExportTime(result.stdout)
    }

    /// The export as parsed JSON.
    func exportObject(file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let result = run(["export"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.object(file: file, line: line)
    }

    /// Fills the home with every kind of item: Korean, emoji and NUL text, a
    /// 1 MB memo, tags, done to-dos, pinned memos, running, paused, finished,
    /// cancelled and stopped timers with laps, and voice memos.
    func fillWithEveryKindOfItem(file: StaticString = #filePath, line: UInt = #line) {
        object("todo", "add", "회의 준비 🎉", "--tag", "work", "--tag", "집", "--due", "2030-06-01 09:30",
               "--priority", "high", "--note", "line one\nline two", file: file, line: line)
        object("todo", "add", "buy milk", "--due", "2030-01-01", file: file, line: line)
        object("todo", "add", "done already", "--priority", "low", file: file, line: line)
        object("todo", "add", "removed later", file: file, line: line)
        succeed("todo", "done", "3", file: file, line: line)
        succeed("todo", "rm", "4", file: file, line: line)
        object("memo", "add", "--title", "회의록", "--tag", "notes", input: Data("첫 줄\n둘째 줄 🎉\n".utf8),
               file: file, line: line)
        object("memo", "add", input: Data("before NUL\u{0}after NUL".utf8), file: file, line: line)
        let big = String(repeating: "한글과 English, emoji 🎉 — 1 MB memo.\n", count: 20_000)
        object("memo", "add", "--tag", "big", input: Data(big.utf8), file: file, line: line)
        object("memo", "pin", "1", file: file, line: line)
        object("voice", "import", TransferHomes.fixtures + "/beep.mp3", "--tag", "work", file: file, line: line)
        object("voice", "import", TransferHomes.fixtures + "/chord-stereo-22k.flac", file: file, line: line)
        object("voice", "import", TransferHomes.fixtures + "/korean-title.ogg", file: file, line: line)
        object("voice", "rename", "2", "화음 🎵", file: file, line: line)
        object("timer", "start", "--label", "달리기", file: file, line: line)   // 1: running stopwatch with laps
        object("timer", "lap", "1", file: file, line: line)
        object("timer", "lap", "1", file: file, line: line)
        object("timer", "start", "25m", file: file, line: line)                  // 2: paused countdown
        object("timer", "pause", "2", file: file, line: line)
        object("timer", "start", "1s", "--label", "tea", file: file, line: line)  // 3: finished countdown
        object("timer", "start", file: file, line: line)                         // 4: stopped stopwatch
        object("timer", "lap", "4", file: file, line: line)
        object("timer", "stop", "4", file: file, line: line)
        object("timer", "start", "10m", file: file, line: line)                  // 5: cancelled
        object("timer", "cancel", "5", file: file, line: line)
        let waited = run(["timer", "wait", "3"])
        XCTAssertEqual(waited.status, 0, waited.stderr, file: file, line: line)
    }
}

import Foundation
import TestSupport
import XCTest

/// `memoapp undo` on the built binary: each kind of change undone through the
/// command line, voice audio back byte for byte, the bounded history, the
/// list, and nothing to undo.
final class UndoEndToEndTests: XCTestCase {
    private let home = VoiceHome()
    private var app: Memoapp { home.app }

    func testEachNotesAndTimerCommandIsUndoneToWhatWasThere() {
        ok("todo", "add", "Buy milk", "--tag", "home", "--priority", "high")
        ok("memo", "add", "회의록 초안", "--tag", "work")
        ok("timer", "start", "25m", "--label", "집중")
        let commands: [[String]] = [
            ["todo", "add", "우유 사기"],
            ["todo", "done", "1"],
            ["todo", "edit", "1", "--title", "Buy oat milk", "--untag", "home"],
            ["todo", "rm", "1"],
            ["memo", "add", "another"],
            ["memo", "edit", "1", "--text", "new text"],
            ["memo", "edit", "1", "--tag", "later", "--untag", "work"],
            ["memo", "pin", "1"],
            ["memo", "rm", "1"],
            ["timer", "pause", "1"],
            ["timer", "cancel", "1"],
            ["timer", "start"],
        ]
        for command in commands {
            let before = state()
            ok(command)
            XCTAssertNotEqual(state(), before, "\(command) changed something")
            let undone = app.run("undo")
            XCTAssertEqual(undone.status, 0, undone.stderr)
            // Named as typed: a word holding a space in quotes, as a shell takes it.
            let typed = command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
            XCTAssertEqual(undone.stdout, "Undid: " + typed + "\n")
            XCTAssertEqual(state(), before, "\(command) undone")
        }
        XCTAssertEqual(app.run("search", "회의", "--json").array().count, 1, "the search index followed every undo")
    }

    func testClearAndImportAreUndoneWhole() throws {
        for title in ["a", "b", "c", "d"] { ok("todo", "add", title) }
        ok("todo", "done", "1", "2", "3", "4")
        let before = state()
        ok("todo", "clear")
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 0)
        ok("undo")
        XCTAssertEqual(state(), before)

        let file = home.folder.appending("todo.txt")
        try Data("(A) one\ntwo +garden\n".utf8).write(to: URL(fileURLWithPath: file))
        ok("todo", "import", "--from", "todotxt", file)
        XCTAssertEqual(app.run("todo", "list", "--json").array().count, 2)
        ok("undo")
        XCTAssertEqual(state(), before)
    }

    func testARestoreIntoAnEmptyHomeIsOneEmptyingStepUndoneWholeWithItsAudio() throws {
        ok("todo", "add", "우유 사기", "--tag", "home")
        ok("todo", "add", "Buy milk", "--due", "2099-01-02")
        ok("memo", "add", "회의록 초안", "--tag", "work")
        ok("timer", "start", "25m", "--label", "집중")
        _ = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "stand-up", "--tag", "work")
        let document = home.folder.appending("export.json")
        ok("export", "-o", document)

        let other = VoiceHome()
        let empty = other.app.run("todo", "list", "--all", "--json").stdout
        let restored = other.app.run("import", document, "--audio", app.home + "/voice")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("Restored"), restored.stdout)
        // The step is one row per filled table, not one per restored row.
        let logged = try sqlite(other.app.home, "SELECT table_name, operation, v1 FROM undo_rows ORDER BY id")
        XCTAssertEqual(logged, """
            todos|empty|2
            todo_tags|empty|1
            memos|empty|1
            memo_tags|empty|1
            voice_memos|empty|1
            voice_memo_tags|empty|1
            voice_memo_peaks|empty|1
            timers|empty|1
            timer_spans|empty|1

            """)
        XCTAssertEqual(other.libraryFiles.count, 1, "the audio came with it")
        let undone = other.app.run("undo")
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(other.app.run("todo", "list", "--all", "--json").stdout, empty)
        XCTAssertEqual(other.app.run("memo", "list", "--json").array().count, 0)
        XCTAssertEqual(other.app.run("voice", "list", "--json").array().count, 0)
        XCTAssertEqual(other.app.run("timer", "list", "--all", "--json").array().count, 0)
        XCTAssertEqual(other.libraryFiles.filter { !$0.hasPrefix(".") }, [], "the restored audio left with its memo")
        XCTAssertEqual(other.app.run("search", "회의", "--json").array().count, 0, "the search index followed")
        XCTAssertEqual(other.app.run("doctor").status, 0, other.app.run("doctor").stdout)

        // Restored again, then a row removed outside the history: the count no
        // longer matches, so the undo is refused and changes nothing.
        XCTAssertEqual(other.app.run("import", document, "--audio", app.home + "/voice").status, 0)
        _ = try sqlite(other.app.home, "DELETE FROM timers")
        let before = other.app.run("todo", "list", "--all", "--json").stdout
        let refused = other.app.run("undo")
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertEqual(other.app.run("todo", "list", "--all", "--json").stdout, before)
    }

    func testAToolImportIntoAnEmptyHomeIsOneEmptyingStepUndoneWhole() throws {
        let empty = app.run("todo", "list", "--all", "--json").stdout
        let todoTxt = home.folder.appending("todo.txt")
        try Data("(A) 회의 준비 +work\nx 2026-11-02 two @home\nthree\n".utf8).write(to: URL(fileURLWithPath: todoTxt))
        ok("todo", "import", "--from", "todotxt", todoTxt)
        XCTAssertEqual(try sqlite(app.home, "SELECT table_name, operation, v1 FROM undo_rows ORDER BY id"), """
            todos|empty|3
            todo_tags|empty|2

            """, "one row per filled table, not one per to-do")
        XCTAssertEqual(app.run("search", "회의", "--json").array().count, 1, "indexed when the import ended")
        ok("undo")
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").stdout, empty)
        XCTAssertEqual(app.run("search", "회의", "--json").array().count, 0, "the search index followed")

        // Memo files into the home emptied again; then a second import into a
        // home that has items is logged row by row and undone alone.
        let memoFile = home.folder.appending("note.md")
        try Data("# 회의록\n\n내용\n".utf8).write(to: URL(fileURLWithPath: memoFile))
        ok("memo", "import", memoFile)
        XCTAssertEqual(try sqlite(app.home, "SELECT table_name, operation, v1 FROM undo_rows ORDER BY id"), "memos|empty|1\n")
        let withMemo = state()
        ok("todo", "import", "--from", "todotxt", todoTxt)
        XCTAssertEqual(try sqlite(app.home, "SELECT count(*) FROM undo_rows WHERE operation = 'insert'"), "5\n",
                       "three to-dos and two tags, each logged")
        ok("undo")
        XCTAssertEqual(state(), withMemo)
        ok("undo")
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 0)
        XCTAssertEqual(app.run("doctor").status, 0, app.run("doctor").stdout)
    }

    func testVoiceRemovalIsUndoneWithItsAudioByteForByte() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "stand-up", "--tag", "work")
        let id = String(describing: memo["id"] ?? 0)
        let audio = try libraryAudio()
        let before = voiceMemos()
        ok("voice", "rm", id)
        XCTAssertEqual(home.memos().count, 0)
        XCTAssertEqual(home.libraryFiles, [".undo"], "the audio left the library, kept aside")
        ok("undo")
        XCTAssertEqual(try libraryAudio(), audio)
        XCTAssertTrue(NSDictionary(dictionary: ["m": voiceMemos()]).isEqual(to: ["m": before]), "the memo as it was")
        XCTAssertEqual(app.run("voice", "verify").status, 0)
        XCTAssertEqual(keptFiles(), [], "the kept audio went back")
        XCTAssertEqual(app.run("doctor").status, 0, app.run("doctor").stdout)
    }

    func testVoiceTrimIsUndoneWithTheOriginalAudioAndTheTrimmedFileGoes() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let id = String(describing: memo["id"] ?? 0)
        let audio = try libraryAudio()
        let before = voiceMemos()
        ok("voice", "trim", id, "--start", "0.2", "--end", "0.5")
        XCTAssertNotEqual(try libraryAudio(), audio)
        XCTAssertEqual(keptFiles().count, 1)
        ok("undo")
        XCTAssertEqual(try libraryAudio(), audio, "the original bytes under the original name, and nothing else")
        XCTAssertTrue(NSDictionary(dictionary: ["m": voiceMemos()]).isEqual(to: ["m": before]))
        XCTAssertEqual(keptFiles(), [])
        XCTAssertEqual(app.run("voice", "verify").status, 0)
        let peaks = app.run("voice", "peaks", id)
        XCTAssertEqual(peaks.status, 0, "the peaks came back with the row: \(peaks.stderr)")
    }

    func testVoiceRenameIsUndone() {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "old")
        ok("voice", "rename", String(describing: memo["id"] ?? 0), "새 제목")
        ok("undo")
        XCTAssertEqual(home.memos().first?["title"] as? String, "old")
    }

    func testTheHistoryIsBoundedAndItsKeptAudioLeavesWithIt() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        ok("voice", "rm", String(describing: memo["id"] ?? 0))
        XCTAssertEqual(keptFiles().count, 1)
        for index in 1...20 { ok("todo", "add", "t\(index)") }
        XCTAssertEqual(keptFiles(), [], "the removal left the history of 20, and its audio with it")
        let list = app.run("undo", "--list", "--json").array()
        XCTAssertEqual(list.count, 20)
        XCTAssertEqual(list.first?["description"] as? String, "todo add t20")
        XCTAssertEqual(list.last?["description"] as? String, "todo add t1")
        for _ in 1...20 { ok("undo") }
        let nothing = app.run("undo")
        XCTAssertEqual(nothing.status, 5)
        XCTAssertEqual(nothing.stderr, "memoapp: there is nothing to undo\n")
        XCTAssertEqual(home.memos().count, 0, "the removal is beyond the history")
    }

    func testForgetEmptiesTheHistoryAndDeletesTheKeptAudioNow() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        ok("voice", "rm", String(describing: memo["id"] ?? 0))
        XCTAssertEqual(keptFiles().count, 1, "kept for an undo")
        let forgotten = app.run("--json", "undo", "--forget")
        XCTAssertEqual(forgotten.status, 0, forgotten.stderr)
        XCTAssertEqual(forgotten.object()["forgotten"] as? Int, 1, "the removal (an import of audio is no step yet)")
        XCTAssertEqual(keptFiles(), [], "the recording is gone for good")
        XCTAssertEqual(app.run("undo").status, 5, "nothing left to undo")
        XCTAssertEqual(app.run("undo", "--forget").stdout, "Forgot 0 changes.\n")
        XCTAssertEqual(app.run("undo", "--list", "--forget").status, 64)
        XCTAssertEqual(app.run("doctor").status, 0, app.run("doctor").stdout)
    }

    func testAnImportIntoAnEmptyHomeGivesEveryItemARevOfItsOwn() throws {
        let file = home.folder.appending("todo.txt")
        try Data((1...50).map { "task \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        ok("todo", "import", "--from", "todotxt", file)
        let revs = app.run("--json", "todo", "list").array().map { $0["rev"] as? Int ?? 0 }
        XCTAssertEqual(revs.count, 50)
        XCTAssertFalse(revs.contains(0))
        XCTAssertEqual(Set(revs).count, 50)
        ok("todo", "add", "after")
        XCTAssertGreaterThan(app.run("--json", "todo", "show", "51").object()["rev"] as? Int ?? 0, revs.max() ?? 0)
    }

    func testNothingToUndoIsInvalidStateInTextAndJSON() {
        let text = app.run("undo")
        XCTAssertEqual(text.status, 5)
        XCTAssertEqual(text.stdout, "")
        XCTAssertEqual(text.stderr, "memoapp: there is nothing to undo\n")
        let json = app.run("undo", "--json")
        XCTAssertEqual(json.status, 5)
        XCTAssertEqual(json.errorCode, "invalid_state")
        XCTAssertEqual(app.run("undo", "--list").stdout, "Nothing to undo.\n")
        XCTAssertEqual(app.run("undo", "--list", "--json").stdout, "[]\n")
    }

    func testTheListShowsNewestFirstWithoutGlobalOptionsAndReadsNothingAsAChange() {
        ok("todo", "add", "first")
        ok("--lang", "en", "memo", "add", "second one", "--json")
        ok("todo", "list")
        let list = app.run("undo", "--list", "--json").array()
        XCTAssertEqual(list.map { $0["description"] as? String }, ["memo add 'second one'", "todo add first"])
        XCTAssertNotNil(documentTime(list.first?["created_at"] as? String ?? ""))
        let text = app.run("undo", "--list").stdout.split(separator: "\n")
        XCTAssertEqual(text.count, 3, "a header and two changes")
        XCTAssertEqual(text.first, "WHEN      CHANGE")
        XCTAssertTrue(text[1].hasSuffix("  memo add 'second one'"), String(text[1]))
    }

    func testUndoIsGatedByTheOnboarding() {
        let fresh = VoiceHome(onboarded: false)
        XCTAssertEqual(fresh.app.run("undo").status, 3)
        XCTAssertEqual(fresh.app.run("undo", "--list").status, 3)
    }

    func testUndoTextShowsControlCharactersOfWhatItNames() {
        ok("todo", "add", "evil\u{1B}[2Jtitle")
        let undone = app.run("undo")
        XCTAssertEqual(undone.status, 0)
        XCTAssertFalse(undone.stdout.contains("\u{1B}"))
        XCTAssertTrue(undone.stdout.contains("␛[2J"), undone.stdout)
    }

    // MARK: - Helpers

    private func ok(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        ok(arguments, file: file, line: line)
    }

    private func ok(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) {
        let result = app.run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
    }

    /// Everything the data home holds as JSON, for comparing before and after.
    /// Of timers, only what the clock does not move (elapsed and remaining
    /// time grow while the test runs).
    private func state() -> String {
        // Every item as it was but its revision: an undo is a change, and
        // gives what it writes back a new rev (the revision tests check it).
        let lists = ["todo list --all", "memo list", "voice list"].map { command in
            UndoEndToEndTests.withoutRevisions(app.run(command.split(separator: " ").map(String.init) + ["--json"]).stdout)
        }
        let stable = ["id", "uid", "kind", "label", "state", "duration", "created_at", "ends_at", "ended_at"]
        let timers = app.run("timer", "list", "--all", "--json").array().map { timer in
            stable.map { "\($0)=\(timer[$0].map { String(describing: $0) } ?? "-")" }.joined(separator: ",")
                + ",laps=\((timer["laps"] as? [Any])?.count ?? 0)"
        }
        return (lists + timers).joined(separator: "\n")
    }

    /// A list's JSON text without its items' `rev` members.
    static func withoutRevisions(_ json: String) -> String {
        json.replacingOccurrences(of: #""rev":[0-9]+,"#, with: "", options: .regularExpression)
    }

    /// Voice memos as `voice list --json` gives them, without `rev`.
    private func voiceMemos() -> [[String: Any]] {
        home.memos().map { $0.filter { $0.key != "rev" } }
    }

    /// What the sqlite3 shell prints for `sql` on the data home's database.
    private func sqlite(_ home: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [home + "/memoapp.db", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, sql)
        return String(decoding: data, as: UTF8.self)
    }

    /// The library's audio files (not the kept ones), name to bytes.
    private func libraryAudio() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in home.libraryFiles where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: app.home + "/voice/" + name))
        }
        return files
    }

    private func keptFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: app.home + "/voice/.undo")) ?? []).sorted()
    }
}

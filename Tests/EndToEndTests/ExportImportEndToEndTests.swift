import Foundation
import TestSupport
import XCTest

/// `memoapp export` and `memoapp import` through the built binary: a full
/// home goes out and comes back the same, a second import adds nothing, a
/// non-empty home gets new ids, and no malformed document changes anything.
final class ExportImportEndToEndTests: XCTestCase {
    func testAFullHomeComesBackTheSameAndASecondImportAddsNothing() throws {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.fillWithEveryKindOfItem()
        // Outside the data home (export refuses a file in it); the audio is
        // named with --audio.
        let file = homes.folder.appending("export.json")
        let written = source.run("export", "--output", file)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, "", "--output prints nothing")
        let exported = TransferHomes.withoutExportTime(try String(contentsOfFile: file, encoding: .utf8))
        XCTAssertEqual(exported, source.exportText(), "the file holds what stdout gets")

        let target = homes.home("target")
        let audio = source.home + "/voice"
        let restored = target.object("import", file, "--audio", audio)
        XCTAssertEqual(restored["restored"] as? Bool, true)
        XCTAssertEqual((restored["todos"] as? [String: Int])?["added"], 3)
        XCTAssertEqual((restored["memos"] as? [String: Int])?["added"], 3)
        XCTAssertEqual((restored["voice_memos"] as? [String: Any])?["added"] as? Int, 3)
        XCTAssertEqual((restored["timers"] as? [String: Int])?["added"], 5)
        XCTAssertEqual(target.exportText(), exported, "the same document but for the export's time")

        // Ids kept, the removed to-do's id not given again, timers still going.
        XCTAssertEqual(target.object("todo", "add", "after the restore")["id"] as? Int, 5)
        XCTAssertEqual(target.object("timer", "status", "1")["state"] as? String, "running")
        XCTAssertEqual((target.object("timer", "lap", "1")["laps"] as? [Any])?.count, 3)
        let memo = target.run(["memo", "show", "2", "--json"]).object()
        XCTAssertEqual(memo["text"] as? String, "before NUL\u{0}after NUL")
        XCTAssertEqual(target.run("voice", "verify").status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.home + "/voice").sorted(),
                       try FileManager.default.contentsOfDirectory(atPath: source.home + "/voice").sorted())
        XCTAssertEqual(target.run("search", "회의").status, 0)
        XCTAssertTrue(target.run("search", "회의", "--json").stdout.contains("회의 준비"), "the search index was filled")
        // The index was built at the end of the restore; the triggers that keep
        // it in step are back, as the migrations made them.
        target.object("memo", "add", "새 메모 after the restore")
        XCTAssertTrue(target.run("search", "메모 after", "--json").stdout.contains("the restore"), "a new memo is indexed")
        XCTAssertEqual(target.run("doctor").status, 0, "the schema is what the migrations made")

        let again = target.object("import", file, "--audio", audio)
        XCTAssertEqual(again["restored"] as? Bool, false)
        for kind in ["todos", "memos", "voice_memos", "timers"] {
            XCTAssertEqual((again[kind] as? [String: Any])?["added"] as? Int, 0, kind)
        }
        XCTAssertEqual((again["timers"] as? [String: Any])?["already_present"] as? Int, 5)
        XCTAssertEqual(source.object("import", file, "--audio", audio)["restored"] as? Bool, false, "into its own home")
        XCTAssertEqual(source.exportText(), exported, "importing into its own home adds nothing")
    }

    func testIntoANonEmptyHomeItemsGetNewIDsAndCountsAreRight() {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.object("todo", "add", "from the source")
        source.object("todo", "add", "also from the source", "--tag", "x")
        source.object("memo", "add", "source memo")
        source.object("voice", "import", TransferHomes.fixtures + "/beep.mp3")
        source.object("timer", "start", "5m")
        let file = homes.folder.appending("export.json")
        XCTAssertEqual(source.run("export", "-o", file).status, 0)

        let target = homes.home("target")
        target.object("todo", "add", "mine")
        target.object("voice", "import", TransferHomes.fixtures + "/tone-mono-16k.wav")
        let report = target.object("import", file, "--audio", source.home + "/voice")
        XCTAssertEqual(report["restored"] as? Bool, false)
        XCTAssertEqual((report["todos"] as? [String: Int]) ?? [:], ["added": 2, "already_present": 0])
        XCTAssertEqual((report["memos"] as? [String: Int]) ?? [:], ["added": 1, "already_present": 0])
        XCTAssertEqual((report["timers"] as? [String: Int]) ?? [:], ["added": 1, "already_present": 0])
        XCTAssertEqual((report["voice_memos"] as? [String: Any])?["added"] as? Int, 1)
        let todos = target.run("todo", "list", "--json").array().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        XCTAssertEqual(todos.map { $0["title"] as? String }, ["mine", "from the source", "also from the source"])
        XCTAssertEqual(todos.map { $0["id"] as? Int }, [1, 2, 3])
        let sourceUIDs = source.run("todo", "list", "--json").array().map { $0["uid"] as? String }
        XCTAssertEqual(Set(todos.dropFirst().map { $0["uid"] as? String }), Set(sourceUIDs), "uids kept")
        let voice = target.run("voice", "list", "--json").array()
        XCTAssertEqual(voice.map { $0["id"] as? Int }, [1, 2])
        XCTAssertTrue((voice[1]["file"] as? String)?.hasSuffix("/voice/2-958c4a5e27b978fc3e771e8c965bd921.mp3") ?? false)
        XCTAssertEqual(target.run("voice", "verify").status, 0)

        let second = target.object("import", file, "--audio", source.home + "/voice")
        XCTAssertEqual((second["todos"] as? [String: Int]) ?? [:], ["added": 0, "already_present": 2])
        XCTAssertEqual((second["voice_memos"] as? [String: Any])?["already_present"] as? Int, 1)
    }

    func testMalformedDocumentsChangeNothingAndNameThePath() throws {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.object("todo", "add", "one")
        source.object("todo", "add", "two")
        source.object("memo", "add", "memo", "--pin")
        source.object("timer", "start")
        let good = source.run("export").stdout
        let empty = homes.home("empty")
        let busy = homes.home("busy")
        busy.object("todo", "add", "mine")
        let before = [empty.exportText(), busy.exportText()]

        func replacing(_ old: String, _ new: String) -> String {
            guard let range = good.range(of: old) else {
                XCTFail("no \(old) in the export")
                return good
            }
            return good.replacingCharacters(in: range, with: new)
        }
        let cases: [(String, String, String)] = [
            ("truncated", String(good.prefix(good.count / 2)), "invalid JSON at line "),
            ("not JSON", "memoapp", "invalid JSON at line 1"),
            ("empty", "", "invalid JSON at line 1"),
            ("wrong type", replacing("\"is_pinned\": true", "\"is_pinned\": \"yes\""),
             "$.memos[0].is_pinned: expected true or false, found a string"),
            ("missing field", replacing("\"title\": \"two\",\n", ""), "$.todos[1].title: missing"),
            ("unknown format", replacing("\"memoapp-export\"", "\"notes-export\""),
             "$.format: not a memoapp export"),
            ("newer version", replacing("\"format_version\": 1", "\"format_version\": 2"),
             "$.format_version: made by a newer memoapp (format version 2); this memoapp is older"),
            ("newer schema", replacing("\"voice.2-uids\"", "\"voice.2-uids\", \"voice.3-from-the-future\""),
             "$.schema.migrations: made by a newer memoapp (unknown migrations: voice.3-from-the-future)"),
            ("duplicate id", replacing("\"id\": 2,", "\"id\": 1,"), "$.todos[1].id: the id 1 is used twice (first at $.todos[0].id)"),
            // Found once every item was read (and, into the empty home, written): still nothing stays.
            ("counter below an id", replacing("\"todos\": 2,", "\"todos\": 1,"),
             "$.last_ids.todos: 1 is below the largest id in todos, 2"),
            ("last item bad", replacing("\"label\": null", "\"label\": 5"), "$.timers[0].label: "),
            ("bad time", replacing("\"created_at\": \"", "\"created_at\": \"29/11/2026 "),
             "$.todos[0].created_at: '29/11/2026 "),
            ("not an object", "[1, 2]", "$: expected an object, found an array"),
        ]
        for (name, text, message) in cases {
            let file = homes.folder.appending("\(name).json")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            for target in [empty, busy] {
                let result = target.run("import", file)
                XCTAssertEqual(result.status, 65, "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("memoapp: \(file): "), "\(name): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr)")
                XCTAssertEqual(result.stdout, "", name)
                let json = target.run("import", file, "--json")
                XCTAssertEqual(json.status, 65, name)
                XCTAssertEqual(json.errorCode, "bad_input", name)
                XCTAssertEqual(json.stdout, "", name)
            }
        }
        XCTAssertEqual([empty.exportText(), busy.exportText()], before, "nothing changed")
    }

    func testVoiceMemosWhoseAudioIsNotFoundAreSkippedAndNamed() {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.object("voice", "import", TransferHomes.fixtures + "/beep.mp3")
        source.object("voice", "import", TransferHomes.fixtures + "/korean-title.ogg")
        source.object("todo", "add", "a to-do")
        let file = homes.folder.appending("export.json")
        XCTAssertEqual(source.run("export", "-o", file).status, 0)
        // The audio of one memo only, under the name it came with.
        let folder = homes.folder.appending("some-audio")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: TransferHomes.fixtures + "/beep.mp3", toPath: folder + "/beep.mp3")

        let target = homes.home("target")
        let result = target.run("import", file, "--audio", folder)
        XCTAssertEqual(result.status, 1, "finished, but a voice memo was left out: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("voice memos: 1 added, 0 already present, 1 skipped (audio not found)"),
                      result.stdout)
        XCTAssertEqual(result.stderr, "memoapp: 1 voice memo skipped, audio not found: “회의 메모 — 3월” "
                       + "(name a folder that holds it with --audio DIR and import again)\n")
        XCTAssertEqual(target.run("voice", "list", "--json").array().map { $0["title"] as? String }, ["beep"])
        XCTAssertEqual(target.run("voice", "verify").status, 0, "no row without its file, no file without its row")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.home + "/voice").count, 1)

        // With the audio found, a second import adds the memo that was missing.
        let second = target.object("import", file, "--audio", source.home + "/voice")
        let voice = second["voice_memos"] as? [String: Any]
        XCTAssertEqual(voice?["added"] as? Int, 1)
        XCTAssertEqual(voice?["already_present"] as? Int, 1)
        XCTAssertEqual(voice?["audio_missing"] as? Int, 0)
        XCTAssertEqual(target.run("voice", "verify").status, 0)
    }

    func testExportOutputAndJSONModes() throws {
        let homes = TransferHomes()
        let app = homes.home("home")
        app.object("todo", "add", "one")
        let plain = app.run("export")
        let json = app.run("export", "--json")
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(TransferHomes.withoutExportTime(json.stdout), TransferHomes.withoutExportTime(plain.stdout),
                       "--json: the document is JSON already")
        let document = json.object()
        XCTAssertEqual(document["format"] as? String, "memoapp-export")
        XCTAssertEqual(document["format_version"] as? Int, 1)
        let exportedAt = document["exported_at"] as? String ?? ""
        XCTAssertTrue(exportedAt.hasSuffix("Z") && exportedAt.dropFirst(10).hasPrefix("T"), exportedAt)

        let file = homes.folder.appending("out.json")
        let summary = app.run("export", "--output", file, "--json")
        XCTAssertEqual(summary.status, 0, summary.stderr)
        let object = summary.object()
        XCTAssertEqual(object["output"] as? String, file)
        XCTAssertEqual(object["todos"] as? Int, 1)
        XCTAssertEqual(object["memos"] as? Int, 0)
        XCTAssertEqual(object["bytes"] as? Int, (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode & 0o077, 0, "an export holds private notes")
        // An existing file is kept unless forced, then replaced whole, no temporary left beside it.
        app.object("todo", "add", "two")
        let kept = app.run("export", "-o", file)
        XCTAssertEqual(kept.status, 5)
        XCTAssertEqual(kept.stderr, "memoapp: \(file) exists; add --force to replace it\n")
        XCTAssertFalse(try String(contentsOfFile: file, encoding: .utf8).contains("\"two\""))
        XCTAssertEqual(app.run("export", "-o", file, "--force").status, 0)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("\"two\""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homes.folder.path).sorted(), ["home", "out.json"])

        let toFolder = app.run("export", "-o", homes.folder.path, "--json")
        XCTAssertEqual(toFolder.status, 5)
        XCTAssertEqual(toFolder.stdout, "")
        let missing = app.run("export", "-o", homes.folder.appending("no/such/folder.json"))
        XCTAssertEqual(missing.status, 74, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("No such file or directory"), missing.stderr)
    }

    func testAnExportKilledBeforeItsRenameIsSweptByTheNextExportToThatName() throws {
        let homes = TransferHomes()
        let app = homes.home("home")
        app.object("todo", "add", "one")
        let folder = homes.folder.path
        let fileManager = FileManager.default
        // What a killed `export -o out.json` leaves: a hidden temporary beside
        // it, which no process holds locked any more. Brand new: age proves nothing.
        let abandoned = folder + "/.out.json.9f3ab2c4d5e6f708.part"
        XCTAssertTrue(fileManager.createFile(atPath: abandoned, contents: Data("{\"format\"".utf8)))
        // One whose writer is alive (this process holds its lock) stays, however old.
        let live = folder + "/.out.json.0123456789abcdef.part"
        XCTAssertTrue(fileManager.createFile(atPath: live, contents: Data()))
        try fileManager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86400)], ofItemAtPath: live)
        let lock = open(live, O_RDONLY)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        // Files that only look alike stay too.
        let notOurs = [folder + "/.out.json.notes.part", folder + "/.other.json.9f3ab2c4d5e6f708.part",
                       folder + "/.out.json.9f3ab2c4d5e6f708.tmp"]
        for path in notOurs { XCTAssertTrue(fileManager.createFile(atPath: path, contents: Data())) }

        XCTAssertEqual(app.run("export", "-o", homes.folder.appending("out.json")).status, 0)
        XCTAssertFalse(fileManager.fileExists(atPath: abandoned), "the abandoned temporary is gone")
        XCTAssertTrue(fileManager.fileExists(atPath: live), "a temporary whose writer holds its lock stays")
        for path in notOurs { XCTAssertTrue(fileManager.fileExists(atPath: path), path) }
    }

    func testImportReadsStandardInputAndRefusesMissingFiles() {
        let homes = TransferHomes()
        let source = homes.home("source")
        source.object("memo", "add", "through a pipe")
        let document = source.run("export").stdoutBytes
        let target = homes.home("target")
        let result = target.run(["import", "-", "--json"], input: document)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual((result.object()["memos"] as? [String: Int])?["added"], 1)
        XCTAssertEqual(target.run("import", homes.folder.appending("none.json")).status, 66)
        XCTAssertEqual(target.run("import", homes.folder.path).status, 66)
        XCTAssertEqual(target.run("import").status, 64)
        let typo = target.run("import", homes.folder.appending("none.json"), "--audio", homes.folder.appending("voic"))
        XCTAssertEqual(typo.status, 66)
        XCTAssertTrue(typo.stderr.contains("voic: no such folder"), typo.stderr)
    }

    func testBothAreBehindTheOnboardingGateAndChangeNothing() throws {
        let homes = TransferHomes()
        let source = homes.home("source")
        let file = homes.folder.appending("export.json")
        XCTAssertEqual(source.run("export", "-o", file).status, 0)
        let newcomer = homes.home("new", onboarded: false)
        for arguments in [["export"], ["export", "-o", homes.folder.appending("x.json")], ["import", file]] {
            let result = newcomer.run(arguments + ["--json"])
            XCTAssertEqual(result.status, 3, arguments.joined(separator: " "))
            XCTAssertEqual(result.errorCode, "onboarding_required")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: homes.folder.appending("x.json")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: newcomer.home), "nothing was created")
        XCTAssertEqual(newcomer.run("export", "--help").status, 0)
        XCTAssertEqual(newcomer.run("import", "--help").status, 0)
    }
}

/// The export reads one snapshot while other processes write.
final class ExportSnapshotEndToEndTests: XCTestCase {
    func testEachExportIsOneSnapshotWhileToDosAreAdded() {
        let homes = TransferHomes()
        let app = homes.home("home")
        let writers = DispatchGroup()
        for writer in 0..<2 {
            DispatchQueue.global().async(group: writers) {
                for index in 0..<25 { app.run("todo", "add", "writer \(writer) item \(index)") }
            }
        }
        // To-dos are only added, so in one snapshot the largest id ever given
        // is the number of to-dos; a document read in pieces would see the
        // counter and the rows at different moments.
        var exports = 0
        while writers.wait(timeout: .now()) == .timedOut || exports < 3 {
            let document = app.exportObject()
            let todos = document["todos"] as? [[String: Any]] ?? []
            let lastID = (document["last_ids"] as? [String: Int])?["todos"]
            XCTAssertEqual(todos.count, lastID, "export \(exports)")
            XCTAssertEqual(todos.compactMap { $0["id"] as? Int }, (0..<todos.count).map { $0 + 1 })
            exports += 1
        }
        XCTAssertEqual((app.exportObject()["todos"] as? [Any])?.count, 50)
    }
}

import Foundation
import TestSupport
import XCTest

/// `voice play` on the built binary, with stand-in players on PATH that
/// record how they were run: the order players are tried in, sox's own
/// seeking, a WAV copy from the offset for the others, no player at all,
/// a failing player, and Ctrl-C.
final class VoicePlayEndToEndTests: XCTestCase {
    private let home = VoiceHome()
    private var record: String { home.folder.appending("record") }

    /// A folder holding stand-ins named `names`: each writes its name and
    /// arguments to `record`, copies the file it was given beside it, and
    /// exits with `STUB_EXIT` (or, with `STUB_SLEEP`, notes its pid and sleeps).
    private func players(_ names: [String], in folderName: String = "bin") throws -> String {
        let bin = home.folder.appending(folderName)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            printf '%s\\n' "${0##*/}" "$@" > "$STUB_RECORD"
            /bin/cp "$1" "$STUB_RECORD.audio"
            if [ -n "$STUB_SLEEP" ]; then echo $$ > "$STUB_RECORD.pid"; exec /bin/sleep 60; fi
            echo "played on the stand-in's stdout"
            exit ${STUB_EXIT:-0}

            """
        for name in names {
            try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/" + name))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/" + name)
        }
        return bin
    }

    private func play(_ arguments: [String], path: String, extra: [String: String] = [:]) -> RunResult {
        home.app.run(["voice", "play"] + arguments, environment: ["PATH": path, "STUB_RECORD": record].merging(extra) { $1 })
    }

    private func recorded() -> [String] {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private func frames(ofCopy path: String) -> Int? {
        let imported = home.app.run("voice", "import", path, "--json", "--allow-duplicate")
        return imported.object()["frames"] as? Int
    }

    func testTheFirstPlayerInOrderPlaysTheStoredFileAndItsStdoutStaysOffOurs() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "stand-up")
        let later = try players(["play", "aplay"], in: "first")
        let earlier = try players(["paplay"], in: "second")
        let played = play(["1"], path: later + ":" + earlier)
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(recorded(), ["paplay", memo["file"] as? String ?? "?"], "paplay comes before aplay and play")
        XCTAssertTrue(played.stdout.hasPrefix("Playing 1  stand-up"), played.stdout)
        XCTAssertTrue(played.stdout.hasSuffix("(paplay)\n"), played.stdout)
        XCTAssertFalse(played.stdout.contains("stand-in"), "a player's output goes to stderr")
        XCTAssertTrue(played.stderr.contains("played on the stand-in's stdout"), played.stderr)

        let json = play(["1", "--json"], path: later)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.object()["id"] as? Int, 1, "stdout holds the memo's document alone")
        XCTAssertEqual(recorded().first, "aplay")
    }

    func testSoxSeeksItselfAndTheOthersGetACopyFromTheOffsetThatIsRemovedAfter() throws {
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let sox = try players(["play"], in: "sox")
        XCTAssertEqual(play(["1", "--from", "0:00.5"], path: sox).status, 0)
        XCTAssertEqual(recorded(), ["play", memo["file"] as? String ?? "?", "trim", "8000s"], "8000 frames at 16 kHz")

        let pipewire = try players(["pw-play"], in: "pipewire")
        let played = play(["1", "--from", "0.25"], path: pipewire)
        XCTAssertEqual(played.status, 0, played.stderr)
        let lines = recorded()
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertEqual(lines.first, "pw-play")
        XCTAssertTrue(lines.last?.hasPrefix(home.app.home + "/voice/.play-") ?? false, "\(lines)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lines.last ?? "/"), "the copy is removed after playing")
        XCTAssertEqual(home.libraryFiles.filter { $0.hasPrefix(".") }, [])
        XCTAssertEqual(frames(ofCopy: record + ".audio"), 12000, "a WAV of the last 0.75 s")
    }

    func testAPlayerThatCannotReadTheStoredFormatGetsAWAV() throws {
        home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        let alsa = try players(["aplay"], in: "alsa")
        XCTAssertEqual(play(["1"], path: alsa).status, 0)
        XCTAssertEqual(recorded().first, "aplay")
        XCTAssertTrue(recorded().last?.contains("/voice/.play-") ?? false, "\(recorded())")
        let magic = try Data(contentsOf: URL(fileURLWithPath: record + ".audio")).prefix(4)
        XCTAssertEqual(String(decoding: magic, as: UTF8.self), "RIFF")
        let paplay = try players(["paplay"], in: "pulse")
        XCTAssertEqual(play(["1"], path: paplay).status, 0)
        XCTAssertTrue(recorded().last?.hasSuffix(".flac") ?? false, "paplay reads FLAC itself: \(recorded())")
    }

    func testNoPlayerABadOffsetAndAFailingPlayerAreClearErrors() throws {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let none = play(["1"], path: "")
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderr, "memoapp: no audio player found on PATH: install one of pw-play (pipewire-bin), "
                       + "paplay (pulseaudio-utils), aplay (alsa-utils) or play (sox)\n")
        XCTAssertEqual(play(["1", "--json"], path: "").errorCode, "internal")
        let emptyEntries = try players(["aplay"], in: "bin")
        XCTAssertEqual(play(["1"], path: "::" + emptyEntries).status, 0, "empty entries are skipped, not the current folder")

        XCTAssertEqual(play(["1", "--from", "2"], path: emptyEntries).status, 64, "past the end")
        XCTAssertEqual(play(["1", "--from", "-1"], path: emptyEntries).status, 64)
        XCTAssertEqual(play(["1", "--from", "nan"], path: emptyEntries).status, 64)
        XCTAssertEqual(play(["9"], path: emptyEntries).status, 4)
        let failing = play(["1"], path: emptyEntries, extra: ["STUB_EXIT": "3"])
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.hasSuffix("memoapp: aplay failed (exit status 3) playing voice memo 1\n"), failing.stderr)
        XCTAssertEqual(Memoapp(home: home.folder.appending("fresh")).run("voice", "play", "1").status, 3, "the gate")
    }

    func testCtrlCStopsThePlayerAndRemovesTheCopy() throws {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let bin = try players(["aplay"], in: "bin")
        var app = home.app
        app.environment["PATH"] = bin
        app.environment["STUB_RECORD"] = record
        app.environment["STUB_SLEEP"] = "1"
        let playing = try BackgroundMemoapp(app, ["voice", "play", "1", "--from", "0.5"])
        // The stand-in notes its pid once it runs: memoapp's handlers are in place by then.
        let deadline = Date().addingTimeInterval(30)
        var playerID: pid_t?
        while playerID == nil && Date() < deadline && playing.isRunning {
            playerID = (try? String(contentsOfFile: record + ".pid", encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if playerID == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        let player = try XCTUnwrap(playerID, "the player never started")
        // Ctrl-C on a terminal reaches both: the player and memoapp.
        kill(player, SIGINT)
        kill(playing.process.processIdentifier, SIGINT)
        let result = playing.finish()
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("memoapp: stopped playing voice memo 1\n"), result.stderr)
        XCTAssertEqual(kill(player, 0), -1, "the player is gone")
        XCTAssertEqual(home.libraryFiles.filter { $0.hasPrefix(".") }, [], "no copy is left")
    }
}

import Foundation
import TestSupport
import XCTest

final class VoiceImportEndToEndTests: XCTestCase {
    func testVoiceCommandsWaitForTheOnboarding() {
        let home = VoiceHome(onboarded: false)
        let result = home.app.run("voice", "import", VoiceHome.fixture("beep.mp3"))
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(home.libraryFiles, [])
    }

    func testImportStoresTheSourceBytesAndReportsTheMetadata() throws {
        let home = VoiceHome()
        let memo = home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"), "--tag", "music")
        XCTAssertEqual(memo["id"] as? Int, 1)
        XCTAssertEqual(memo["title"] as? String, "Chord in two channels")
        XCTAssertEqual(memo["container"] as? String, "FLAC")
        XCTAssertEqual(memo["encoding"] as? String, "PCM 16-bit")
        XCTAssertEqual(memo["sample_rate"] as? Int, 22050)
        XCTAssertEqual(memo["channels"] as? Int, 2)
        XCTAssertEqual(memo["frames"] as? Int, 33075)
        XCTAssertEqual(memo["duration"] as? Double, 1.5)
        XCTAssertEqual(memo["tags"] as? [String], ["music"])
        XCTAssertEqual(memo["checksum"] as? String, "d0f49c7c8d6cdc78e2cfb283814ac6a5")
        let stored = try XCTUnwrap(memo["file"] as? String)
        XCTAssertEqual(FileManager.default.contents(atPath: stored),
                       FileManager.default.contents(atPath: VoiceHome.fixture("chord-stereo-22k.flac")))
        XCTAssertEqual(home.libraryFiles.count, 1)
        let list = home.app.run("voice", "list")
        let rows = list.stdout.split(separator: "\n")
        XCTAssertEqual(rows.first, "ID  LENGTH      SIZE  FORMAT  IMPORTED  TITLE", list.stdout)
        // Tenths of a second, sizes in KiB, the title last.
        XCTAssertTrue(rows.count == 2 && rows[1].hasPrefix(" 1  0:01.5  81.5 KiB  FLAC    ")
                      && rows[1].hasSuffix("  Chord in two channels  #music"), list.stdout)
    }

    func testEveryFormatOfTheFixturesImports() {
        let home = VoiceHome()
        let names = ["tone-mono-16k.wav", "korean-title.ogg", "beep.mp3", "voice.opus", "sweep-24bit.aiff",
                     "float-mono.caf", "flac-named.wav"]
        for name in names { home.importFile(VoiceHome.fixture(name)) }
        let memos = home.memos()
        XCTAssertEqual(memos.map { $0["container"] as? String }, ["WAV", "Ogg", "MP3", "Ogg", "AIFF", "CAF", "FLAC"])
        XCTAssertEqual(memos[1]["title"] as? String, "회의 메모 — 3월")
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testMP3sFromLAMEAndFFmpegImportWithTheLengthTheyDecodeToAndExportWhole() throws {
        let home = VoiceHome()
        let lengths = try String(contentsOfFile: VoiceHome.fixture("mp3/lengths.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertGreaterThan(lengths.count, 10)
        for fields in lengths {
            let memo = home.importFile(VoiceHome.fixture("mp3/" + fields[0]))
            XCTAssertEqual(memo["frames"] as? Int, Int(fields[1]), fields[0])
        }
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
        // A VBR file without a Xing tag, which libsndfile, reading it as a
        // seekable file, stops a third of the way through.
        let index = try XCTUnwrap(lengths.firstIndex { $0[0] == "lame-vbr-48k-stereo-notag.mp3" })
        let wav = home.folder.appending("whole.wav")
        XCTAssertEqual(home.app.run("voice", "export", "\(index + 1)", wav).status, 0)
        XCTAssertEqual(home.importFile(wav)["frames"] as? Int, Int(lengths[index][1]))
        // Its last tenth of a second can be kept.
        let trimmed = home.app.run("voice", "trim", "\(index + 1)", "--start", "0.9", "--end", "1.03", "--json")
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        XCTAssertEqual(trimmed.object()["frames"] as? Int, 6240)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testLAMEsDefaultMP3OfSpeechImports() {
        // espeak-ng -v en "Remember to buy milk" -w en.wav; lame en.wav en.mp3
        let home = VoiceHome()
        let memo = home.importFile(VoiceHome.fixture("mp3/lame-default-speech.mp3"))
        XCTAssertEqual(memo["frames"] as? Int, 33408)
        XCTAssertEqual(memo["sample_rate"] as? Int, 22050)
    }

    func testEveryRefusalHasItsCodeAndLeavesNoRowAndNoFile() {
        let home = VoiceHome()
        let refusals: [(String, Int32, String, String)] = [
            ("empty.wav", 65, "bad_input", "empty"),
            ("truncated.wav", 65, "bad_input", "truncated"),
            ("truncated.flac", 65, "bad_input", "corrupt"),
            ("truncated.mp3", 65, "bad_input", "truncated"),
            ("mp3/cut-ffmpeg-vbr-44k-stereo.mp3", 65, "bad_input", "truncated"),
            ("not-audio.wav", 65, "bad_input", "not audio"),
            ("zero-frames.wav", 65, "bad_input", "zero frames"),
            ("truncated.m4a", 65, "bad_input", "truncated"),
            ("many-channels.wav", 65, "bad_input", "200 channels"),
            ("does-not-exist.wav", 66, "no_input", "cannot open"),
        ]
        for (name, status, code, words) in refusals {
            let result = home.app.run("voice", "import", VoiceHome.fixture(name), "--json")
            XCTAssertEqual(result.status, status, name)
            XCTAssertEqual(result.errorCode, code, name)
            XCTAssertEqual(result.stdout, "", name)
            XCTAssertTrue(result.stderr.contains(words), "\(name): \(result.stderr)")
            XCTAssertEqual(home.memos().count, 0, name)
            XCTAssertEqual(home.libraryFiles, [], name)
            let text = home.app.run("voice", "import", VoiceHome.fixture(name))
            XCTAssertTrue(text.stderr.hasPrefix("memoapp: ") && text.stderr.contains(name.split(separator: "/").last.map(String.init) ?? name), text.stderr)
            XCTAssertEqual(text.stderr.split(separator: "\n").count, 1, text.stderr)
        }
        let folder = home.app.run("voice", "import", home.folder.path)
        XCTAssertEqual(folder.status, 66)
    }

    func testSeveralFilesAreJudgedAloneAndTheWorstCodeWins() throws {
        let home = VoiceHome()
        let result = home.app.run(["voice", "import", VoiceHome.fixture("beep.mp3"), VoiceHome.fixture("empty.wav"),
                                   VoiceHome.fixture("missing.wav"), VoiceHome.fixture("voice.opus"), "--json"])
        XCTAssertEqual(result.status, 66)
        let report = result.array()
        XCTAssertEqual(report.map { $0["imported"] as? Bool }, [true, false, false, true])
        XCTAssertEqual(report.map { ($0["error"] as? [String: Any])?["code"] as? String }, [nil, "bad_input", "no_input", nil])
        XCTAssertEqual(home.memos().count, 2)
        XCTAssertEqual(home.libraryFiles.count, 2)
        let text = home.app.run("voice", "import", VoiceHome.fixture("tone-mono-16k.wav"), VoiceHome.fixture("not-audio.wav"))
        XCTAssertEqual(text.status, 65)
        XCTAssertTrue(text.stdout.contains("✓"), text.stdout)
        XCTAssertTrue(text.stdout.contains("✗ not-audio.wav"), text.stdout)
        XCTAssertTrue(text.stdout.contains("1 of 2 imported"), text.stdout)
    }

    func testSameBytesAgainAreADuplicateUnlessAllowed() {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("beep.mp3"), "--title", "첫 번째")
        let again = home.app.run("voice", "import", VoiceHome.fixture("beep.mp3"), "--json")
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.errorCode, "duplicate")
        XCTAssertTrue(again.stderr.contains("voice memo 1 “첫 번째”"), again.stderr)
        XCTAssertEqual(home.libraryFiles.count, 1)
        let allowed = home.importFile(VoiceHome.fixture("beep.mp3"), "--allow-duplicate")
        XCTAssertEqual(allowed["id"] as? Int, 2)
        XCTAssertEqual(home.libraryFiles.count, 2)
    }

    func testKoreanMessagesFollowTheLanguage() {
        let home = VoiceHome()
        let result = home.app.run("voice", "import", VoiceHome.fixture("empty.wav"), "--lang", "ko")
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("빈 파일입니다"), result.stderr)
    }
}

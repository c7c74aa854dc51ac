import Foundation
import TestSupport
import XCTest

/// What phones record (AAC in .m4a, ALAC in .caf and .m4a) through the
/// built binary: kept byte for byte, the length ffprobe reports, peaks as
/// ffmpeg decodes, export and trim as for any format; cut files refused
/// leaving nothing.
final class VoicePhoneAudioEndToEndTests: XCTestCase {
    static let imported = ["voice-memo.m4a", "alac.caf", "alac-24bit.m4a"]

    func testImportKeepsTheBytesWithTheLengthFFprobeReports() throws {
        let home = VoiceHome()
        for name in Self.imported + ["aac.m4a"] {
            let memo = home.importFile(VoiceHome.fixture(name))
            let probed = try XCTUnwrap(FFmpegTool.probe(VoiceHome.fixture(name)), name)
            XCTAssertEqual(memo["frames"] as? Int, Int(probed.frames), name)
            XCTAssertEqual(memo["sample_rate"] as? Int, probed.sampleRate, name)
            XCTAssertEqual(memo["channels"] as? Int, probed.channels, name)
            XCTAssertEqual(memo["duration"] as? Double, Double(probed.frames) / Double(probed.sampleRate), name)
            let stored = try XCTUnwrap(memo["file"] as? String)
            XCTAssertEqual(FileManager.default.contents(atPath: stored),
                           FileManager.default.contents(atPath: VoiceHome.fixture(name)), name)
        }
        let memos = home.memos()
        XCTAssertEqual(memos.map { $0["container"] as? String }, ["MP4", "CAF", "MP4", "MP4"])
        XCTAssertEqual(memos.map { $0["encoding"] as? String }, ["AAC", "ALAC 16-bit", "ALAC 24-bit", "AAC"])
        XCTAssertEqual(memos.first?["title"] as? String, "회의 메모 Meeting", "the M4A's title tag")
        XCTAssertEqual(memos.compactMap { ($0["file"] as? String)?.split(separator: ".").last.map(String.init) },
                       ["m4a", "caf", "m4a", "m4a"])
        let list = home.app.run("voice", "list")
        XCTAssertTrue(list.stdout.contains("MP4"), list.stdout)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testPeaksAreThoseOfFFmpegsDecode() throws {
        for name in Self.imported {
            let home = VoiceHome()
            let memo = home.importFile(VoiceHome.fixture(name))
            let frames = try XCTUnwrap(memo["frames"] as? Int)
            let channels = try XCTUnwrap(memo["channels"] as? Int)
            let samples = Array(FFmpegTool.decode16(VoiceHome.fixture(name)).prefix(frames * channels))
            XCTAssertEqual(samples.count, frames * channels, name)
            let result = home.app.run("voice", "peaks", "1", "--samples-per-pixel", "256")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.object()["data"] as? [Int],
                           HandMadeWAV.peaks(samples: samples, channels: channels, samplesPerPixel: 256), name)
        }
    }

    func testExportToWAVAndFLACHasTheMemosLengthAndSamples() throws {
        for name in Self.imported {
            let home = VoiceHome()
            let memo = home.importFile(VoiceHome.fixture(name))
            let frames = try XCTUnwrap(memo["frames"] as? Int)
            for format in ["wav", "flac"] {
                let destination = home.folder.appending("out.\(format)")
                let result = home.app.run("voice", "export", "1", destination, "--json")
                XCTAssertEqual(result.status, 0, "\(name) → \(format): \(result.stderr)")
                XCTAssertEqual(result.object()["converted"] as? Bool, true)
                XCTAssertEqual(FFmpegTool.probe(destination)?.frames, Int64(frames), "\(name) → \(format)")
                // The samples themselves: ALAC's exactly; AAC's decode to floats,
                // which libsndfile writes as x·32767 where ffmpeg rounds x·32768.
                let channels = memo["channels"] as? Int ?? 1
                let tolerance = name.hasPrefix("alac") ? 0 : 1
                XCTAssertTrue(Self.close(FFmpegTool.decode16(destination),
                                         Array(FFmpegTool.decode16(VoiceHome.fixture(name)).prefix(frames * channels)),
                                         within: tolerance), "\(name) → \(format)")
            }
        }
    }

    func testTrimOfAnAACMemoStoresFLACAndUndoBringsTheM4ABack() throws {
        let home = VoiceHome()
        let before = home.importFile(VoiceHome.fixture("voice-memo.m4a"))
        let trimmed = home.app.run("voice", "trim", "1", "--start", "0.25", "--end", "1", "--json")
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let memo = trimmed.object()
        XCTAssertEqual(memo["frames"] as? Int, 36000)
        XCTAssertEqual(memo["container"] as? String, "FLAC")
        XCTAssertEqual(memo["encoding"] as? String, "PCM 16-bit")
        let samples = FFmpegTool.decode16(VoiceHome.fixture("voice-memo.m4a"))
        XCTAssertTrue(Self.close(FFmpegTool.decode16(try XCTUnwrap(memo["file"] as? String)), Array(samples[12000..<48000]),
                                 within: 1))
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
        XCTAssertEqual(home.app.run("undo").status, 0)
        let back = home.memos().first
        XCTAssertEqual(back?["checksum"] as? String, before["checksum"] as? String)
        XCTAssertEqual(back?["container"] as? String, "MP4")
    }

    func testTrimOfAnALACMemoInCAFStaysALACInCAF() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("alac.caf"))
        let trimmed = home.app.run("voice", "trim", "1", "--start", "0.1", "--end", "0.3", "--json")
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        XCTAssertEqual(trimmed.object()["frames"] as? Int, 4410)
        XCTAssertEqual(trimmed.object()["container"] as? String, "CAF")
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    /// Same length, and no sample further than `within` from its counterpart.
    static func close(_ some: [Int16], _ other: [Int16], within tolerance: Int) -> Bool {
        some.count == other.count && zip(some, other).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    func testCutOrForeignFilesAreRefusedLeavingNothing() {
        let home = VoiceHome()
        let refusals = [("truncated.m4a", "truncated"), ("truncated-moov.m4a", "MP4/M4A"),
                        ("pcm.mov", "AAC and ALAC")]
        for (name, words) in refusals {
            let result = home.app.run("voice", "import", VoiceHome.fixture(name), "--json")
            XCTAssertEqual(result.status, 65, "\(name): \(result.stderr)")
            XCTAssertEqual(result.errorCode, "bad_input", name)
            XCTAssertEqual(result.stdout, "", name)
            XCTAssertTrue(result.stderr.contains(words), "\(name): \(result.stderr)")
            XCTAssertEqual(home.memos().count, 0, name)
            // Nothing, not even a temporary, in the library folder.
            XCTAssertEqual(home.libraryFiles, [], name)
            let text = home.app.run("voice", "import", VoiceHome.fixture(name), "--lang", "ko")
            XCTAssertEqual(text.status, 65)
            XCTAssertEqual(text.stderr.split(separator: "\n").count, 1, text.stderr)
        }
    }
}

/// FFmpeg's libraries are loaded only for what needs them: with a broken
/// libavformat first on the loader's path, everything else works and an M4A
/// import says which Debian package is missing.
final class VoiceWithoutFFmpegEndToEndTests: XCTestCase {
    func testOnlyAACAndALACNeedFFmpegAndTheErrorNamesThePackage() throws {
        let home = VoiceHome()
        let broken = TemporaryDirectory()
        // Not ELF files: dlopen refuses them, and so would the loader at start
        // if memoapp were linked against FFmpeg. One for each major version
        // a Debian release has shipped, since the soname follows the headers.
        for major in 58...62 {
            XCTAssertTrue(FileManager.default.createFile(atPath: broken.appending("libavformat.so.\(major)"),
                                                         contents: Data("no".utf8)))
        }
        let without = ["LD_LIBRARY_PATH": broken.path]
        XCTAssertEqual(home.app.run(["todo", "add", "buy milk"], environment: without).status, 0)
        XCTAssertEqual(home.app.run(["voice", "import", VoiceHome.fixture("tone-mono-16k.wav")], environment: without).status, 0)
        for language in ["en", "ko"] {
            let result = home.app.run(["voice", "import", VoiceHome.fixture("voice-memo.m4a"), "--lang", language],
                                      environment: without)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), result.stderr)
            XCTAssertTrue(result.stderr.contains("libavformat.so."), result.stderr)
            XCTAssertNotNil(result.stderr.range(of: #"Debian (package )?libavformat[0-9]+|libavformat[0-9]+"#,
                                                options: .regularExpression), result.stderr)
            XCTAssertTrue(result.stderr.contains(language == "ko" ? "설치하세요" : "install"), result.stderr)
        }
        let json = home.app.run(["voice", "import", VoiceHome.fixture("voice-memo.m4a"), "--json"], environment: without)
        XCTAssertEqual(json.errorCode, "internal", json.stderr)
        XCTAssertEqual(json.stdout, "")
        XCTAssertEqual(home.memos().count, 1, "the WAV alone")
        XCTAssertEqual(home.libraryFiles.filter { !$0.hasPrefix(".") }.count, 1)
        // A stored M4A cannot be checked without FFmpeg: verify says why, and
        // calls no file undecodable.
        home.importFile(VoiceHome.fixture("voice-memo.m4a"))
        let verify = home.app.run(["voice", "verify", "--json"], environment: without)
        XCTAssertEqual(verify.status, 1)
        XCTAssertEqual(verify.errorCode, "internal", verify.stderr)
        XCTAssertFalse(verify.stdout.contains("undecodable"), verify.stdout)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)

        // Doctor names the library and the package that brings it back.
        let doctor = home.app.run(["doctor", "--json"], environment: without)
        XCTAssertEqual(doctor.status, 1, doctor.stderr)
        let checks = doctor.object()["checks"] as? [[String: Any]] ?? []
        let audio = checks.first { $0["name"] as? String == "audio_library" }
        XCTAssertEqual(audio?["status"] as? String, "problem", "\(checks)")
        let problem = (audio?["problems"] as? [[String: Any]])?.first
        XCTAssertTrue((problem?["message"] as? String ?? "").contains("libavformat.so."), "\(String(describing: problem))")
        XCTAssertNotNil((problem?["fix"] as? String)?.range(of: #"^sudo apt-get install libavformat[0-9]+$"#,
                                                             options: .regularExpression), "\(String(describing: problem))")
        XCTAssertTrue((audio?["summary"] as? String ?? "").hasPrefix("libsndfile-"), "\(String(describing: audio))")
        let healthy = home.app.run("doctor", "--json")
        XCTAssertEqual(healthy.status, 0, healthy.stdout)
        let summary = (healthy.object()["checks"] as? [[String: Any]])?
            .first { $0["name"] as? String == "audio_library" }?["summary"] as? String ?? ""
        XCTAssertTrue(summary.contains("; FFmpeg libavformat "), summary)
    }
}

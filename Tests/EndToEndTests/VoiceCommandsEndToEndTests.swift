import Foundation
import TestSupport
import XCTest

final class VoiceCommandsEndToEndTests: XCTestCase {
    /// A stereo WAV of known samples, imported; returns the samples.
    private func importKnownStereo(_ home: VoiceHome) throws -> [Int16] {
        let samples: [Int16] = (0..<(3000 * 2)).map { Int16(truncatingIfNeeded: ($0 * 7919) % 65536 - 32768) }
        let path = home.folder.appending("known.wav")
        try HandMadeWAV.bytes(samples: samples, channels: 2, rate: 8000).write(to: URL(fileURLWithPath: path))
        home.importFile(path)
        return samples
    }

    func testPeaksEqualAnIndependentComputation() throws {
        let home = VoiceHome()
        let samples = try importKnownStereo(home)
        for spp in [32, 64, 256, 1000] {
            let result = home.app.run("voice", "peaks", "1", "--samples-per-pixel", "\(spp)")
            XCTAssertEqual(result.status, 0, result.stderr)
            let document = result.object()
            XCTAssertEqual(document["version"] as? Int, 2)
            XCTAssertEqual(document["channels"] as? Int, 1)
            XCTAssertEqual(document["sample_rate"] as? Int, 8000)
            XCTAssertEqual(document["samples_per_pixel"] as? Int, spp)
            XCTAssertEqual(document["bits"] as? Int, 16)
            let expected = HandMadeWAV.peaks(samples: samples, channels: 2, samplesPerPixel: spp)
            XCTAssertEqual(document["length"] as? Int, expected.count / 2)
            if spp % 32 == 0 {
                XCTAssertEqual(document["data"] as? [Int], expected, "spp \(spp)")
            } else {
                // Not a multiple of the stored 32: each pixel may reach into its neighbours, never narrower.
                let data = document["data"] as? [Int] ?? []
                XCTAssertEqual(data.count, expected.count)
                for index in stride(from: 0, to: min(data.count, expected.count), by: 2) {
                    XCTAssertLessThanOrEqual(data[index], expected[index])
                    XCTAssertGreaterThanOrEqual(data[index + 1], expected[index + 1])
                }
            }
        }
    }

    func testPeaksByWidthAndInEightBits() throws {
        let home = VoiceHome()
        let samples = try importKnownStereo(home)
        let byWidth = home.app.run("voice", "peaks", "1", "--width", "10").object()
        XCTAssertEqual(byWidth["samples_per_pixel"] as? Int, 300)
        XCTAssertEqual(byWidth["length"] as? Int, 10)
        let document = home.app.run("voice", "peaks", "1", "--samples-per-pixel", "320", "--bits", "8").object()
        XCTAssertEqual(document["bits"] as? Int, 8)
        XCTAssertEqual(document["data"] as? [Int],
                       HandMadeWAV.peaks(samples: samples, channels: 2, samplesPerPixel: 320).map { $0 / 256 })
        // The largest sizes each option takes answer, a block or a pixel per stored block at most.
        let widest = home.app.run("voice", "peaks", "1", "--width", "10000000").object()
        XCTAssertEqual(widest["samples_per_pixel"] as? Int, 32)
        let coarsest = home.app.run("voice", "peaks", "1", "--samples-per-pixel", "2147483647").object()
        XCTAssertEqual(coarsest["length"] as? Int, 1)
        let both = home.app.run("voice", "peaks", "1", "--width", "10", "--samples-per-pixel", "64")
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(home.app.run("voice", "peaks", "9").status, 4)
    }

    func testShowGivesTheMetadataAndAOneLineWaveform() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("korean-title.ogg"))
        let text = home.app.run("voice", "show", "1")
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("회의 메모 — 3월"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Ogg, Vorbis"), text.stdout)
        let waveform = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertEqual(waveform.count, 80)
        XCTAssertTrue(waveform.allSatisfy { "▁▂▃▄▅▆▇█".contains($0) }, waveform)
        let json = home.app.run("voice", "show", "1", "--json").object()
        XCTAssertEqual((json["waveform"] as? String)?.count, 80)
        XCTAssertEqual(home.app.run("voice", "show", "2").status, 4)
    }

    func testWaveformWritesAnSVGFile() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("beep.mp3"))
        let output = home.folder.appending("wave.svg")
        let result = home.app.run("voice", "waveform", "1", "--output", output, "--width", "300", "--height", "80")
        XCTAssertEqual(result.status, 0, result.stderr)
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertTrue(svg.hasPrefix("<?xml"))
        XCTAssertTrue(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"80\""), svg)
        XCTAssertEqual(home.app.run("voice", "waveform", "1").status, 64)
    }

    func testExportConvertsAndKeepsAnExistingDestinationUnlessForced() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        for format in ["wav", "flac", "ogg", "mp3"] {
            let destination = home.folder.appending("out.\(format)")
            let result = home.app.run("voice", "export", "1", destination, "--json")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.object()["converted"] as? Bool, format != "wav")
            // What was written imports back as that format.
            let back = home.app.run("voice", "import", destination, "--json", "--allow-duplicate")
            XCTAssertEqual(back.status, 0, "\(format): \(back.stderr)")
        }
        let kept = home.folder.appending("kept.flac")
        _ = FileManager.default.createFile(atPath: kept, contents: Data("mine".utf8))
        let refused = home.app.run("voice", "export", "1", kept)
        XCTAssertEqual(refused.status, 5)
        XCTAssertEqual(FileManager.default.contents(atPath: kept), Data("mine".utf8))
        XCTAssertEqual(home.app.run("voice", "export", "1", kept, "--force").status, 0)
        XCTAssertNotEqual(FileManager.default.contents(atPath: kept), Data("mine".utf8))
        XCTAssertEqual(home.app.run("voice", "export", "1", home.folder.appending("x.aac")).status, 64)
        XCTAssertEqual(home.app.run("voice", "export", "1", home.folder.appending("x.aac"), "--format", "ogg").status, 0)
    }

    func testExportCopiesNothingThroughALinkPlantedInTheLibraryOrFromChangedBytes() throws {
        let home = VoiceHome()
        let memo = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let stored = try XCTUnwrap(memo["file"] as? String)
        let secret = home.folder.appending("shadow")
        try Data("root:secret:1:0:99999:7:::\n".utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.removeItem(atPath: stored)
        try FileManager.default.createSymbolicLink(atPath: stored, withDestinationPath: secret)
        let destination = home.folder.appending("out.wav")
        let linked = home.app.run("voice", "export", "1", destination, "--json")
        XCTAssertEqual(linked.status, 74, linked.stderr)
        XCTAssertEqual(linked.errorCode, "storage")
        XCTAssertTrue(linked.stderr.contains("symbolic link"), linked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination))
        // Bytes that are not the memo's: neither copied nor converted.
        try FileManager.default.removeItem(atPath: stored)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: VoiceHome.fixture("tone-mono-16k.wav")))
        bytes[3000] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: stored))
        for name in ["out.wav", "out.flac"] {
            let changed = home.app.run("voice", "export", "1", home.folder.appending(name))
            XCTAssertEqual(changed.status, 74, changed.stderr)
            XCTAssertTrue(changed.stderr.contains("not the audio it stored"), changed.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.folder.appending(name)))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.folder.path).filter { $0.hasPrefix(".") }, [])
    }

    /// Hidden names in the test's folder: the temporaries an export left there.
    private func temporaries(_ home: VoiceHome) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.folder.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    func testAudioOfNaNAndInfinitiesExportsToEveryFormatAndLeavesNoTemporary() throws {
        let home = VoiceHome()
        for (name, value) in [("nan.wav", Float.nan), ("inf.wav", Float.infinity), ("huge.wav", Float(3e38))] {
            let path = home.folder.appending(name)
            let samples = (0..<8000).map { $0 % 2 == 0 ? value : -value }
            try HandMadeWAV.floatBytes(samples: samples, rate: 8000).write(to: URL(fileURLWithPath: path))
            let memo = home.importFile(path)
            for format in ["mp3", "flac", "ogg", "wav"] {
                let destination = home.folder.appending("\(name).\(format)")
                let result = home.app.run("voice", "export", "\(memo["id"] as? Int ?? 0)", destination)
                XCTAssertEqual(result.status, 0, "\(name) to \(format): \(result.stderr)")
                XCTAssertEqual(home.app.run("voice", "import", destination, "--allow-duplicate").status, 0, "\(name).\(format)")
            }
        }
        XCTAssertEqual(temporaries(home), [])
    }

    func testAnEncoderThatFailsSaysWhyAndLeavesNothing() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        let destination = home.folder.appending("big.wav")
        // Files of at most 64 KiB, and writes past that fail (EFBIG) instead of killing the process.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 64; trap '' XFSZ; exec \"$0\" voice export 1 \"$1\"",
                             Memoapp.binaryPath, destination]
        process.environment = home.app.environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 74, stderr)
        XCTAssertTrue(stderr.contains("writing audio failed: System error : File too large"), stderr)
        XCTAssertFalse(stderr.contains("No Error"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination))
        XCTAssertEqual(temporaries(home), [])
    }

    func testTheNextExportIntoAFolderRemovesTheTemporaryOfAKilledOneButNotOfARunningOne() throws {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        // What an export killed mid-write (or aborted inside an encoder) leaves: just made, no lock.
        let killed = home.folder.appending(".out.flac.0123456789abcdef.part")
        let running = home.folder.appending(".out.flac.fedcba9876543210.part")
        for path in [killed, running] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        let writer = open(running, O_RDONLY)
        defer { close(writer) }
        XCTAssertEqual(flock(writer, LOCK_EX | LOCK_NB), 0)
        XCTAssertEqual(home.app.run("voice", "export", "1", home.folder.appending("out.flac")).status, 0)
        XCTAssertEqual(temporaries(home), [".out.flac.fedcba9876543210.part"])
        XCTAssertEqual(home.app.run("voice", "waveform", "1", "--output", home.folder.appending("w.svg")).status, 0)
        XCTAssertEqual(temporaries(home), [".out.flac.fedcba9876543210.part"], "each writer sweeps its own name's")
    }

    func testTrimKeepsTheSpanAndRefusesSpansOutsideTheAudio() {
        let home = VoiceHome()
        let before = home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        let trimmed = home.app.run("voice", "trim", "1", "--start", "0:00.5", "--end", "1", "--json")
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let memo = trimmed.object()
        XCTAssertEqual(memo["frames"] as? Int, 11025)
        XCTAssertNotEqual(memo["checksum"] as? String, before["checksum"] as? String)
        // The trimmed file, and the replaced one kept for undo.
        XCTAssertEqual(home.libraryFiles.count, 2)
        XCTAssertEqual(home.libraryFiles.first, ".undo")
        XCTAssertEqual(home.app.run("voice", "peaks", "1", "--samples-per-pixel", "32").object()["length"] as? Int,
                       (11025 + 31) / 32)
        for (start, end) in [("0.2", "0.2"), ("0.4", "0.1"), ("0", "9"), ("2:00", "3:00"), ("abc", "1"), ("1:75", "2"),
                             ("0", "576460752303424"), ("576460752303424", "576460752303425"),
                             ("0", String(repeating: "9", count: 400)), ("0", "99999999999999999999:00:00")] {
            let result = home.app.run("voice", "trim", "1", "--start", start, "--end", end)
            XCTAssertEqual(result.status, 64, "\(start)-\(end): \(result.stderr)")
        }
        XCTAssertEqual(home.app.run("voice", "trim", "1").status, 64, "neither --start nor --end")
        XCTAssertEqual(home.memos().first?["frames"] as? Int, 11025)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testTrimWithOnlyStartOrOnlyEndKeepsTheRest() {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("chord-stereo-22k.flac"))
        let full = home.app.run("voice", "trim", "1", "--start", "0", "--end", "1", "--json").object()
        XCTAssertEqual(full["frames"] as? Int, 22050)
        // From 0.25 s to the end: 0.75 s at 22,050 frames a second.
        let tail = home.app.run("voice", "trim", "1", "--start", "0.25", "--json")
        XCTAssertEqual(tail.status, 0, tail.stderr)
        XCTAssertEqual(Double(tail.object()["frames"] as? Int ?? 0), 16537.5, accuracy: 1)
        // From the start to 0.5 s.
        let head = home.app.run("voice", "trim", "1", "--end", "0.5", "--json")
        XCTAssertEqual(head.status, 0, head.stderr)
        XCTAssertEqual(head.object()["frames"] as? Int, 11025)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testRenameAndRemoveTakeTheFileWithTheRow() {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("beep.mp3"))
        home.importFile(VoiceHome.fixture("voice.opus"))
        let renamed = home.app.run("voice", "rename", "1", "주간 회의", "--json")
        XCTAssertEqual(renamed.object()["title"] as? String, "주간 회의")
        XCTAssertEqual(home.app.run("voice", "rename", "1", "  ").status, 64)
        XCTAssertEqual(home.app.run("voice", "rm", "1", "7").status, 4)
        XCTAssertEqual(home.libraryFiles.count, 2)
        let removed = home.app.run("voice", "rm", "1", "2", "--json")
        XCTAssertEqual((removed.object()["removed"] as? [[String: Any]])?.map { $0["id"] as? Int }, [1, 2])
        XCTAssertEqual(home.libraryFiles, [".undo"], "the files left the library, kept only for undo")
        XCTAssertEqual(home.memos().count, 0)
    }

    func testVerifyReportsEachProblemAndExits1() throws {
        let home = VoiceHome()
        let first = home.importFile(VoiceHome.fixture("beep.mp3"))
        let second = home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
        try FileManager.default.removeItem(atPath: try XCTUnwrap(first["file"] as? String))
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: try XCTUnwrap(second["file"] as? String)))
        bytes[2000] ^= 0x11
        try bytes.write(to: URL(fileURLWithPath: try XCTUnwrap(second["file"] as? String)))
        _ = FileManager.default.createFile(atPath: home.app.home + "/voice/5-0123456789abcdef0123456789abcdef.wav", contents: Data())
        let result = home.app.run("voice", "verify", "--json")
        XCTAssertEqual(result.status, 1)
        let report = result.object()
        XCTAssertEqual(report["ok"] as? Bool, false)
        let problems = report["problems"] as? [[String: Any]] ?? []
        XCTAssertEqual(problems.map { $0["kind"] as? String }, ["missing_file", "checksum_mismatch", "orphan_file"])
        let text = home.app.run("voice", "verify")
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.contains("3 problem(s) found."), text.stdout)
    }

    func testSearchableTitlesAndHelp() {
        let home = VoiceHome()
        for command in ["import", "record", "list", "show", "peaks", "waveform", "export", "trim", "rename", "rm", "verify"] {
            let result = home.app.run("voice", command, "--help")
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.contains("memoapp voice \(command)"), result.stdout)
        }
    }

    func testVoiceTitlesJoinTheCombinedSearchButNotMemoSearch() {
        let home = VoiceHome()
        home.importFile(VoiceHome.fixture("beep.mp3"), "--title", "주간회의록 녹음")
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "Standup MEETING")
        home.app.run("memo", "add", "회의 준비물")

        let hits = home.app.run("search", "회의", "--json").array()
        XCTAssertEqual(hits.map { $0["kind"] as? String }, ["memo", "voice"])
        XCTAssertEqual(hits.last?["snippet"] as? String, "주간[회의]록 녹음")
        XCTAssertEqual(hits.last?["match_start"] as? Int, 2)
        XCTAssertEqual(hits.last?["match_length"] as? Int, 2)

        let english = home.app.run("search", "meeting")
        XCTAssertEqual(english.status, 0, english.stderr)
        XCTAssertTrue(english.stdout.contains("voice   2  Standup [MEETING]"), english.stdout)
        XCTAssertEqual(home.app.run("memo", "search", "회의", "--json").array().count, 1)
        XCTAssertEqual(home.app.run("search", "녹음록", "--json").array().count, 0)
    }

    func testMainScreenShowsTheNewestVoiceMemos() {
        let home = VoiceHome()
        XCTAssertEqual((home.app.run("--json").object()["voice"] as? [String: Any])?["count"] as? Int, 0)
        for (index, fixture) in ["beep.mp3", "tone-mono-16k.wav", "voice.opus", "korean-title.ogg"].enumerated() {
            home.importFile(VoiceHome.fixture(fixture), "--title", "clip \(index + 1)")
        }
        let voice = home.app.run("--json").object()["voice"] as? [String: Any]
        XCTAssertEqual(voice?["count"] as? Int, 4)
        let latest = voice?["latest"] as? [[String: Any]] ?? []
        XCTAssertEqual(latest.map { $0["title"] as? String }, ["clip 4", "clip 3", "clip 2"])
        let text = home.app.run([]).stdout
        XCTAssertTrue(text.contains("Latest voice memos"), text)
        XCTAssertTrue(text.contains("4 voice memos in all"), text)
    }
}
